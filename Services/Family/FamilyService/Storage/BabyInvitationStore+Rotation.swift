import KindredHandlers
import KindredPostgres

/// What `keys rotate-data` reads and writes of `family.baby_invitations` (`InvitationEmails`).
extension BabyInvitationStore {
    /// Up to `limit` invitations' addresses after the invitation `after` (nil: from the first), in key order.
    static func emails(after: BabyInvitationKey?, limit: Int, on db: PostgresPool) async throws
        -> [(BabyInvitationKey, StoredText)]
    {
        try await db.pureRead(
            """
            SELECT profile_id, invitation_id, email, email_sealed FROM family.baby_invitations
            WHERE (profile_id, invitation_id) > (
                coalesce(\(after?.profile)::uuid, '00000000-0000-0000-0000-000000000000'),
                coalesce(\(after?.invitation)::uuid, '00000000-0000-0000-0000-000000000000'))
            ORDER BY profile_id, invitation_id LIMIT \(limit)
            """
        ).decode((BabyProfileID, BabyInvitationID, String?, [UInt8]?).self).map {
            (
                BabyInvitationKey(profile: $0, invitation: $1),
                StoredText(plain: $3 == nil ? $2 : nil, sealed: $3)
            )
        }
    }

    /// Replaces the address of `key` with `sealed`, if it is still the one read (`was`).
    static func reseal(
        _ key: BabyInvitationKey, was: StoredText, as sealed: [UInt8], in tx: PostgresTransaction
    )
        async throws
    {
        try await tx.query(
            """
            UPDATE family.baby_invitations SET email_sealed = \(sealed)::bytea, email = NULL
            WHERE profile_id = \(key.profile)::uuid AND invitation_id = \(key.invitation)::uuid
              AND email_sealed IS NOT DISTINCT FROM \(was.sealed)::bytea
            """)
    }
}
