import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC

/// `AcceptBabyProfileInvitation`: the invited address's account redeems a link and joins the profile, a
/// follower with their relationship to the baby, or the co-owner, never a third owner however many accept at
/// once.
extension BabyProfiles {
    /// Makes `user` a member of the profile whose link carries `token`. Refusals, in this order: the link
    /// (unknown, revoked, used by another account, expired), the account (another address, then not
    /// verified), the relationship (a follower must name one of theirs; an owner may say mother, father or
    /// parent), the owner limit. The same account accepting again
    /// gets the profile.
    func accept(
        token text: String, relationship kind: Kindred_Family_V1_Relationship, other: String, by user: UserID
    ) async throws -> StoredBabyProfile {
        var violations = FieldViolations()
        violations.require("token", text)
        let relationship = BabyRelationship(kind, other: other, &violations)
        try violations.throwIfAny()
        let token = OpaqueToken(text: text)
        guard let seen = try await BabyInvitationStore.profile(ofToken: token, on: database) else {
            throw FamilyError.babyInvitationUnknown
        }
        let account = try await account(user)
        let now = clock.now
        let profile = try await database.transaction { tx in
            // The profile's row first, then the invitation again: whatever changed its owners or this link
            // before the lock was granted (another accept, a resend, a revoke, a deletion) is seen now.
            guard try await BabyProfileStore.lock(seen, in: tx),
                let invitation = try await BabyInvitationStore.invitation(
                    token: token, emails: emails, on: tx)
            else { throw FamilyError.babyInvitationUnknown }
            try Self.check(invitation, for: user, account: account, now: now)
            if invitation.acceptedBy == user { return invitation.profile }
            try await join(user, by: invitation, relationship ?? .none, now: now, in: tx)
            return invitation.profile
        }
        return try await self.profile(profile, as: user)
    }

    /// The refusals of the link and the account, as `accept` orders them.
    private static func check(
        _ invitation: BabyInvitationStore.Invitation, for user: UserID,
        account: (email: String, verified: Bool),
        now: Date
    ) throws {
        if invitation.revokedAt != nil { throw FamilyError.babyInvitationRevoked }
        if let acceptedBy = invitation.acceptedBy {
            guard acceptedBy == user else { throw FamilyError.babyInvitationUsed }
            return
        }
        guard invitation.isLive(at: now) else { throw FamilyError.babyInvitationExpired }
        guard Email.normalized(account.email) == Email.normalized(invitation.email) else {
            throw FamilyError.babyInvitationForAnotherAccount
        }
        guard account.verified else { throw FamilyError.babyInvitationEmailNotVerified }
    }

    /// Makes `user` a member as the invitation says, with the profile locked: a follower needs a follower's
    /// relationship, an owner may say theirs (mother, father, parent); a member already there keeps their
    /// place (a follower invited as co-owner becomes one).
    private func join(
        _ user: UserID, by invitation: BabyInvitationStore.Invitation, _ relationship: BabyRelationship,
        now: Date, in tx: PostgresTransaction
    ) async throws {
        let current = try await BabyMemberStore.holdRole(of: user, in: invitation.profile, tx: tx)
        switch (invitation.role, current) {
        case (.follower, nil):
            try relationship.check(for: .follower)
            _ = try await BabyMemberStore.insert(
                user, into: invitation.profile, as: .follower, relationship, now: now, in: tx)
        case (.owner, nil):
            try relationship.check(for: .owner)
            try await requireRoomForOwner(in: invitation.profile, tx)
            _ = try await BabyMemberStore.insert(
                user, into: invitation.profile, as: .owner, relationship, now: now, in: tx)
        case (.owner, .follower):
            try relationship.check(for: .owner)
            try await requireRoomForOwner(in: invitation.profile, tx)
            try await BabyMemberStore.promote(user, in: invitation.profile, as: relationship, in: tx)
        case (_, .owner), (.follower, .follower):
            // Already there: the link is spent, and nobody joined.
            try await BabyInvitationStore.markAccepted(invitation, by: user, now: now, in: tx)
            return
        }
        try await BabyInvitationStore.markAccepted(invitation, by: user, now: now, in: tx)
        let joined = BabyActivityEntry(
            profile: invitation.profile, kind: .memberJoined, actor: user, subject: user.uuid,
            detail: relationship.label)
        try await BabyActivityLog.record(joined, at: now, seals: seals, in: tx)
    }
}
