import KindredPostgres
import LoadTestKit

/// What makes the seed's minors restricted teenagers with guardians (`SeededUsers.isMinor`: the ninth of each
/// ten users, guarded by the eighth): family's controls (active, messaging only with people followed, joins
/// needing approval) and guardian links, as identity's `user.registered` and an accepted guardian invitation
/// would have left them.
extension SeedWriter {
    func writeGuardians(first: Int, last: Int, in tx: PostgresTransaction) async throws {
        let tag = seed.seededUsers.tag
        try await tx.query(
            """
            INSERT INTO family.parental_controls (minor_id, active, messaging_followed_only,
                public_events_restricted, event_join_approval_required, content_filtering, updated_at)
            SELECT (\(tag) || '-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid, true, true, false, true, false,
                now()
            FROM generate_series(\(first)::int, \(last)::int) n
            WHERE n % 10 = 8
            ON CONFLICT DO NOTHING
            """)
        try await tx.query(
            """
            INSERT INTO family.guardian_links (id, minor_id, guardian_id, created_at)
            SELECT (\(tag) || '-000b-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid,
                (\(tag) || '-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid,
                (\(tag) || '-0000-4000-8000-' || lpad(to_hex(n - 1), 12, '0'))::uuid, now()
            FROM generate_series(\(first)::int, \(last)::int) n
            WHERE n % 10 = 8
            ON CONFLICT DO NOTHING
            """)
    }
}
