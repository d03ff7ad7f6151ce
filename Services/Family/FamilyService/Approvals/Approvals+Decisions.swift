import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres

/// `DecideApprovalRequest`.
extension Approvals {
    /// A guardian of the minor approves or denies pending request `approvalID`. In the same transaction the
    /// decision becomes an `approval.decided` event and a notice to the minor. A request is decided once:
    /// deciding it again is `APPROVAL_ALREADY_DECIDED`, unless it is the same guardian giving the same answer
    /// (a retry), which returns the request as it stands. The minor and services may see the request but not
    /// decide it (`ONLY_GUARDIAN_MAY_DECIDE`); anyone else gets NOT_FOUND.
    func decide(_ approvalID: ApprovalID, approve: Bool, as caller: Caller) async throws -> ApprovalRecord {
        let decision: ApprovalRecord.State = approve ? .approved : .denied
        let now = clock.now
        return try await database.transaction { tx in
            guard let record = try await ApprovalStore.lockedApproval(id: approvalID, in: tx) else {
                throw FamilyError.approvalNotFound
            }
            guard caller.role != .service, let guardianID = caller.accountUserID,
                try await GuardianLinkStore.hold(guardian: guardianID, minor: record.minorID, in: tx)
            else {
                let maySee = caller.role == .service || caller.accountUserID == record.minorID
                throw maySee ? FamilyError.onlyGuardianMayDecide : FamilyError.approvalNotFound
            }
            guard record.state == .pending else {
                guard record.state == decision, record.decidedBy == guardianID else {
                    throw FamilyError.approvalAlreadyDecided
                }
                return record
            }
            let decided = try await ApprovalStore.decide(
                approvalID, decision, by: guardianID, at: now, in: tx)
            try await FamilyEvents.append(
                .approvalDecided(Kindred_Family_V1_ApprovalDecided(approval: decided.proto)),
                sealedWith: cipher,
                in: tx)
            try await NotificationInbox.post(
                decided.decidedNotice, to: decided.minorID, at: now, sealedWith: cipher, in: tx)
            return decided
        }
    }
}
