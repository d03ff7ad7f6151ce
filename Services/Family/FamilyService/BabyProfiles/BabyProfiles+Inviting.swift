import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC

/// `InviteToBabyProfile`, `ListBabyProfileInvitations`, `ResendBabyProfileInvitation` and
/// `RevokeBabyProfileInvitation`: what owners do with invitations. A follower gets OWNERS_ONLY, anyone else
/// BABY_PROFILE_NOT_FOUND, before an invitation is looked at.
extension BabyProfiles {
    /// Mails `draft.email` a link to join as `draft.role`. A retry with the same request_id returns the first
    /// invitation and mails nothing; the same request_id for another address or role is REQUEST_ID_REUSED.
    func invite(_ draft: BabyInvitationDraft, by owner: UserID) async throws -> BabyInvitationStore.Invitation
    {
        let now = clock.now
        do {
            return try await database.transaction { tx in
                try await BabyMembership.holdOwner(owner, of: draft.profile, in: tx)
                try await BabyInvitationStore.holdMailingTurn(of: draft.profile, tx)
                if let first = try await BabyInvitationStore.invitation(
                    in: draft.profile, requestID: draft.requestID, emails: emails, on: tx)
                {
                    guard draft.isRetry(of: first) else { throw FamilyError.requestIDReused }
                    return first
                }
                if draft.role == .owner { try await requireRoomForOwner(in: draft.profile, tx) }
                try await requireRoomToMail(in: draft.profile, now: now, tx)
                let invitation = BabyInvitationStore.Invitation(
                    id: .generate(at: now), profile: draft.profile, invitedBy: owner,
                    requestID: draft.requestID,
                    email: draft.email.address, role: draft.role, sentAt: now, expiresAt: expiry(from: now),
                    acceptedBy: nil, revokedAt: nil)
                let token = OpaqueToken.generate()
                let superseded = try await BabyInvitationStore.live(
                    in: draft.profile, now: now, emails: emails, tx
                ).filter { draft.email.matches($0.email) }
                try await BabyInvitationStore.insert(
                    invitation, token: token, superseding: superseded, emails: emails, in: tx)
                try await mailLink(token, of: invitation, from: owner, in: tx)
                return invitation
            }
        } catch let error as PostgresError where error.isUniqueViolation {
            // A retry racing this call committed the same request_id first.
            guard
                let first = try await BabyInvitationStore.invitation(
                    in: draft.profile, requestID: draft.requestID, emails: emails, on: database)
            else { throw error }
            guard draft.isRetry(of: first) else { throw FamilyError.requestIDReused }
            return first
        }
    }

    /// A page of `profile`'s invitations, newest first, for an owner.
    func invitations(
        of profile: BabyProfileID, page request: Kindred_Common_V1_PageRequest?, by owner: UserID
    )
        async throws -> Kindred_Family_V1_ListBabyProfileInvitationsResponse
    {
        let page = try BabyPage(request, list: "baby_invitations:\(profile)", fields: 1)
        let before = try page.after.map { fields throws(RPCError) in
            guard let id = BabyInvitationID(fields[0]) else { throw BabyPage.foreignToken }
            return id
        }
        try await membership.requireOwner(owner, of: profile)
        let fetched = try await BabyInvitationStore.page(
            of: profile, before: before, limit: page.size + 1, emails: emails, on: database)
        let (invitations, next) = page.cut(fetched) { page.token($0.id.description) }
        let now = clock.now
        return Kindred_Family_V1_ListBabyProfileInvitationsResponse(
            invitations: invitations.map { $0.proto(at: now) }, page: next)
    }

    /// Mails a new link for a pending or expired invitation, working 7 days from now; the old link is dead.
    func resend(_ id: BabyInvitationID, of profile: BabyProfileID, by owner: UserID) async throws
        -> BabyInvitationStore.Invitation
    {
        let now = clock.now
        return try await database.transaction { tx in
            // The profile before the invitation, in the order `invite` takes them, which locks the profile's
            // pending invitations to the same address.
            try await BabyInvitationStore.holdMailingTurn(of: profile, tx)
            let invitation = try await heldInvitation(id, of: profile, owner: owner, tx)
            guard invitation.revokedAt == nil else { throw FamilyError.babyInvitationRevoked }
            if invitation.role == .owner { try await requireRoomForOwner(in: profile, tx) }
            try requireResendInterval(invitation, now: now)
            try await requireRoomToMail(in: profile, now: now, tx)
            let token = OpaqueToken.generate()
            try await BabyInvitationStore.renew(
                invitation, token: token, sentAt: now, expiresAt: expiry(from: now), in: tx)
            try await mailLink(token, of: invitation, from: owner, in: tx)
            return try await BabyInvitationStore.hold(id, in: profile, emails: emails, tx: tx) ?? invitation
        }
    }

    /// Ends an invitation's link; revoking a revoked one changes nothing.
    func revoke(_ id: BabyInvitationID, of profile: BabyProfileID, by owner: UserID) async throws
        -> BabyInvitationStore.Invitation
    {
        let now = clock.now
        return try await database.transaction { tx in
            let invitation = try await heldInvitation(id, of: profile, owner: owner, tx)
            guard invitation.revokedAt == nil else { return invitation }
            try await BabyInvitationStore.revoke(invitation, now: now, in: tx)
            return try await BabyInvitationStore.hold(id, in: profile, emails: emails, tx: tx) ?? invitation
        }
    }

    /// OWNER_LIMIT_REACHED when `profile` has its two owners.
    func requireRoomForOwner(in profile: BabyProfileID, _ tx: PostgresTransaction) async throws {
        let owners = try await BabyMemberStore.memberIDs(of: profile, role: .owner, on: tx)
        guard owners.count < Self.maximumOwners else { throw FamilyError.ownerLimitReached }
    }

    /// The owner's invitation `id`, locked, not yet accepted.
    private func heldInvitation(
        _ id: BabyInvitationID, of profile: BabyProfileID, owner: UserID, _ tx: PostgresTransaction
    ) async throws -> BabyInvitationStore.Invitation {
        try await BabyMembership.holdOwner(owner, of: profile, in: tx)
        guard let invitation = try await BabyInvitationStore.hold(id, in: profile, emails: emails, tx: tx)
        else {
            throw FamilyError.babyInvitationNotFound
        }
        guard invitation.acceptedBy == nil else { throw FamilyError.babyInvitationAccepted }
        return invitation
    }

    /// Queues the mail carrying `token` for `invitation`, naming the inviting owner and the baby.
    private func mailLink(
        _ token: OpaqueToken, of invitation: BabyInvitationStore.Invitation, from owner: UserID,
        in tx: PostgresTransaction
    ) async throws {
        let inviter = try await ProfileStore.read(owner, names: nil, on: tx).displayName
        let stored = try await BabyProfileStore.read(invitation.profile, as: owner, seals: seals, on: tx)
        let baby = stored?.displayName ?? "Baby"
        try await mail.send(
            try mail.babyInvitation(
                to: invitation.email, from: inviter, baby: baby, asOwner: invitation.role == .owner,
                token: token),
            in: tx)
    }

    private func expiry(from now: Date) -> Date {
        now.addingTimeInterval(Double(Self.invitationLifetime.components.seconds))
    }
}

extension BabyInvitationStore.Invitation {
    /// The invitation as the wire carries it, in its state at `now`.
    func proto(at now: Date) -> Kindred_Family_V1_BabyInvitation {
        Kindred_Family_V1_BabyInvitation(
            invitationID: id.description, profileID: profile.description, email: email, role: role.proto,
            state: state(at: now), invitedByUserID: invitedBy.description,
            sentAt: sentAt, expiresAt: expiresAt,
            acceptedByUserID: acceptedBy?.description ?? "")
    }
}
