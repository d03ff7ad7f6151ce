import KindredPostgres
import LoadTestKit

/// What makes the seed's minors restricted teenagers with guardians (`SeededUsers.isMinor`: the ninth of each
/// ten users, guarded by the eighth): social's follows (everyone follows their friends, so a teenager allowed
/// to message only people they follow still reaches them, and hears from them) and a few blocks; family's
/// controls (active, messaging only with people followed, joins needing approval) and guardian links, as
/// identity's `user.registered` and an accepted guardian invitation would have left them.
extension SeedWriter {
    func writeFollowsAndBlocks(first: Int, last: Int, reach: Int, in tx: PostgresTransaction) async throws {
        let (tag, users) = (seed.seededUsers.tag, seed.users)
        try await tx.query(
            """
            INSERT INTO social.follows (follower_id, followee_id, since)
            SELECT (\(tag) || '-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid,
                (\(tag) || '-0000-4000-8000-' || lpad(to_hex(f), 12, '0'))::uuid, now()
            FROM generate_series(\(first)::int, \(last)::int) n,
                generate_series(1, \(reach)::int) d,
                LATERAL (VALUES ((n + d) % \(users)::int), ((n - d + \(users)::int) % \(users)::int)) AS v(f)
            WHERE f <> n
            ON CONFLICT DO NOTHING
            """)
        // The seventh of each ten blocks the user half the ring away: never a friend, never messaged.
        try await tx.query(
            """
            INSERT INTO social.blocks (blocker_id, blocked_id, since)
            SELECT (\(tag) || '-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid,
                (\(tag) || '-0000-4000-8000-' || lpad(to_hex((n + \(users)::int / 2) % \(users)::int), 12, '0'))::uuid,
                now()
            FROM generate_series(\(first)::int, \(last)::int) n
            WHERE n % 10 = 6 AND \(users)::int > 4 * \(reach)::int
            ON CONFLICT DO NOTHING
            """)
    }

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
