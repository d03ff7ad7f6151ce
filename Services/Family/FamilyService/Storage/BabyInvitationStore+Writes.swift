import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredPostgres

/// The writes of `family.baby_invitations`: a link stored, renewed, revoked, accepted, and forgotten with its
/// acceptor's account.
extension BabyInvitationStore {
    /// Stores `invitation` with the hash of `token` and its address sealed; the invitations it supersedes (the
    /// profile's live ones to the same address) expire now, so only the newest link works.
    static func insert(
        _ invitation: Invitation, token: OpaqueToken, superseding: [Invitation],
        emails: SealedText<BabyInvitationKey>, in tx: PostgresTransaction
    ) async throws {
        if !superseding.isEmpty {
            try await tx.query(
                """
                UPDATE family.baby_invitations SET expires_at = \(invitation.sentAt)
                WHERE profile_id = \(invitation.profile)::uuid
                    AND invitation_id = ANY(\(PostgresArray(superseding.map(\.id.description)))::uuid[])
                    AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > \(invitation.sentAt)
                """)
        }
        let key = BabyInvitationKey(profile: invitation.profile, invitation: invitation.id)
        try await tx.query(
            """
            INSERT INTO family.baby_invitations
                (profile_id, invitation_id, invited_by, request_id, email_sealed, role, token_hash, sent_at,
                expires_at)
            VALUES (\(invitation.profile)::uuid, \(invitation.id)::uuid, \(invitation.invitedBy)::uuid,
                \(invitation.requestID), \(emails.seal(invitation.email, of: key))::bytea,
                \(invitation.role.rawValue)::smallint, \(token.storageHash), \(invitation.sentAt),
                \(invitation.expiresAt))
            """)
    }

    /// Replaces the link of `invitation` with `token`, mailed at `sentAt` and working until `expiresAt`: the
    /// old link no longer finds it.
    static func renew(
        _ invitation: Invitation, token: OpaqueToken, sentAt: Date, expiresAt: Date,
        in tx: PostgresTransaction
    ) async throws {
        try await tx.query(
            """
            UPDATE family.baby_invitations
            SET token_hash = \(token.storageHash), sent_at = \(sentAt), expires_at = \(expiresAt)
            WHERE profile_id = \(invitation.profile)::uuid AND invitation_id = \(invitation.id)::uuid
            """)
    }

    /// Ends `invitation`'s link at `now`.
    static func revoke(_ invitation: Invitation, now: Date, in tx: PostgresTransaction) async throws {
        try await tx.query(
            """
            UPDATE family.baby_invitations SET revoked_at = \(now)
            WHERE profile_id = \(invitation.profile)::uuid AND invitation_id = \(invitation.id)::uuid
            """)
    }

    /// Marks `invitation` accepted by `user` at `now`.
    static func markAccepted(_ invitation: Invitation, by user: UserID, now: Date, in tx: PostgresTransaction)
        async throws
    {
        try await tx.query(
            """
            UPDATE family.baby_invitations SET accepted_at = \(now), accepted_by = \(user)::uuid
            WHERE profile_id = \(invitation.profile)::uuid AND invitation_id = \(invitation.id)::uuid
            """)
    }

    /// Deletes the invitations `user` accepted: their address goes with their account.
    static func forgetAccepted(by user: UserID, in tx: PostgresTransaction) async throws {
        try await tx.query("DELETE FROM family.baby_invitations WHERE accepted_by = \(user)::uuid")
    }
}
