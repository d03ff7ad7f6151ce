import KindredHandlers
import KindredPostgres

/// What `keys rotate-data` reads and writes of `family.guardian_invitations` (`InvitationEmails`).
extension GuardianInvitationStore {
    /// Up to `limit` invitations' addresses after the invitation `after` (nil: from the first), by id.
    static func emails(after: GuardianInvitationID?, limit: Int, on db: PostgresPool) async throws
        -> [(GuardianInvitationID, StoredText)]
    {
        try await db.pureRead(
            """
            SELECT id::text, guardian_email, guardian_email_sealed FROM family.guardian_invitations
            WHERE id > coalesce(\(after)::uuid, '00000000-0000-0000-0000-000000000000')
            ORDER BY id LIMIT \(limit)
            """
        ).decode((GuardianInvitationID, String?, [UInt8]?).self).map {
            ($0, StoredText(plain: $2 == nil ? $1 : nil, sealed: $2))
        }
    }

    /// Replaces the address of the invitation `id` with `sealed`, if it is still the one read (`was`).
    static func reseal(
        _ id: GuardianInvitationID, was: StoredText, as sealed: [UInt8], in tx: PostgresTransaction
    )
        async throws
    {
        try await tx.query(
            """
            UPDATE family.guardian_invitations SET guardian_email_sealed = \(sealed)::bytea, guardian_email = NULL
            WHERE id = \(id)::uuid AND guardian_email_sealed IS NOT DISTINCT FROM \(was.sealed)::bytea
            """)
    }
}
