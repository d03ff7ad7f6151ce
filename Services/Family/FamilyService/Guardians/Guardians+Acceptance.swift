import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC

/// `AcceptGuardianInvitation`: an adult with a verified email redeems a minor's link and becomes their
/// guardian, at most two per minor however many instances accept at once.
extension Guardians {
    /// Makes `caller` the guardian of the minor who mailed `token`. The same guardian accepting again (the
    /// same link or another of the minor's) gets the existing link back.
    func accept(token text: String, as caller: Caller) async throws -> GuardianLinkStore.Link {
        try FieldViolations.require(["token": text])
        guard let guardian = caller.accountUserID else { throw FamilyError.accountRequired }
        guard !caller.isMinor else { throw FamilyError.guardianMustBeAdult }
        guard try await isEmailVerified(guardian) else { throw FamilyError.emailNotVerified }
        let token = OpaqueToken(text: text)
        let now = clock.now
        return try await database.transaction { tx in
            guard let seen = try await GuardianInvitationStore.redemption(token: token, on: tx) else {
                throw FamilyError.invitationUnknown
            }
            // The minor's row first, then the invitation again: whatever changed the minor's guardians or
            // invitations before the lock was granted (another accept, the minor's deletion) is seen now.
            _ = try await ControlsLifecycleStore.lockMinor(seen.minorID, now: now, in: tx)
            guard let invitation = try await GuardianInvitationStore.redemption(token: token, on: tx) else {
                throw FamilyError.invitationUnknown
            }
            return try await link(guardian, by: invitation, now: now, in: tx)
        }
    }

    /// The rest of an acceptance, with the minor's row locked.
    private func link(
        _ guardian: UserID, by invitation: GuardianInvitationStore.Redemption, now: Date,
        in tx: PostgresTransaction
    ) async throws -> GuardianLinkStore.Link {
        let minor = invitation.minorID
        let links = try await GuardianLinkStore.links(ofMinor: minor, on: tx)
        let existing = links.first { $0.guardianID == guardian }
        if let acceptedBy = invitation.acceptedBy {
            guard acceptedBy == guardian, let existing else { throw FamilyError.invitationUsed }
            return existing
        }
        guard invitation.expiresAt > now else { throw FamilyError.invitationExpired }
        guard guardian != minor else { throw FamilyError.cannotGuardSelf }
        try await GuardianInvitationStore.markAccepted(invitation.id, by: guardian, now: now, in: tx)
        if let existing { return existing }
        guard links.count < Self.maximumPerMinor else { throw FamilyError.guardianLimitReached }
        let link = try await GuardianLinkStore.insert(guardian: guardian, minor: minor, now: now, in: tx)
        let notice = Notice(
            kind: .guardianLinked, title: "You have a new guardian",
            body: "Your guardian invitation was accepted: they can now set your parental controls.",
            subjectUserID: guardian, dedupKey: "guardian_linked:\(link.id)")
        try await NotificationInbox.post(notice, to: minor, at: now, sealedWith: mail.outbox.cipher, in: tx)
        return link
    }
}

extension GuardianLinkStore.Link {
    /// The link as the wire carries it.
    var proto: Kindred_Family_V1_GuardianLink {
        Kindred_Family_V1_GuardianLink(
            linkID: id.description, minorUserID: minorID.description, guardianUserID: guardianID.description,
            createdAt: createdAt)
    }
}
