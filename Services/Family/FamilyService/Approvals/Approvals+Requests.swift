import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredRPC

/// `CreateApprovalRequest`: asking a minor's guardians.
extension Approvals {
    /// Asks the guardians of the ask's minor, who each get a notice; returns the request, or the one already
    /// pending for the same minor, kind and subject (and then nobody is told twice). The caller is the minor or
    /// a service; a minor without a guardian is refused (`NO_GUARDIAN`), since nobody could decide.
    func create(_ ask: ApprovalAsk, as caller: Caller) async throws -> ApprovalRecord {
        try Self.requireMayAsk(for: ask.minorID, caller)
        let now = clock.now
        return try await database.transaction { tx in
            let guardians = try await GuardianLinkStore.guardianIDs(ofMinor: ask.minorID, on: tx)
            guard !guardians.isEmpty else { throw FamilyError.noGuardian }
            let (record, created) = try await ApprovalStore.insertPending(
                ask, id: .generate(at: now), at: now, in: tx)
            if created {
                for guardian in guardians {
                    try await NotificationInbox.post(
                        record.requestedNotice, to: guardian, at: now, sealedWith: cipher, in: tx)
                }
            }
            return record
        }
    }

    /// A service may ask for anyone; a user only for themselves, and only while a minor.
    private static func requireMayAsk(for minorID: UserID, _ caller: Caller) throws(RPCError) {
        guard caller.role != .service else { return }
        guard caller.accountUserID == minorID else { throw FamilyError.approvalNotYours }
        guard caller.isMinor else { throw FamilyError.notAMinor }
    }
}

extension ApprovalRecord {
    /// What each guardian's inbox shows when the request is made.
    var requestedNotice: Notice {
        let title =
            switch kind {
            case .joinEvent: "Approval requested: joining an event"
            case .viewFlaggedMedia: "Approval requested: viewing flagged media"
            }
        return Notice(
            kind: .approvalRequested, title: title, body: summary, subjectUserID: minorID,
            dedupKey: "approval_requested:\(id)")
    }

    /// What the minor's inbox shows once a guardian decided.
    var decidedNotice: Notice {
        Notice(
            kind: .approvalDecided,
            title: state == .approved
                ? "Your guardian approved your request" : "Your guardian declined your request",
            body: summary, dedupKey: "approval_decided:\(id)")
    }
}
