import KindredPostgres
import LoadTestKit

/// Social's side of the seed beyond people and friendships: follows (everyone follows their friends, so a
/// teenager allowed to message only people they follow still reaches them, and hears from them), a few blocks,
/// and an event per user (the feed's content).
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

    /// An event organized by every user, made by `CreateEvent`: public for the sixth of each ten (whom the
    /// teenagers ask to join: `SeededUsers.publicOrganizer`), private otherwise; a week to a month ahead.
    func writeEvents(first: Int, last: Int, in tx: PostgresTransaction) async throws {
        let tag = seed.seededUsers.tag
        try await tx.query(
            """
            INSERT INTO social.events (id, organizer_id, title, description, starts_at, place, public, mature,
                created_at, request_id)
            SELECT (\(tag) || '-000c-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid,
                (\(tag) || '-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid,
                (ARRAY['Picnic', 'Board games', 'Football', 'Book club'])[1 + n % 4], 'A seeded event',
                now() + (7 + n % 23) * interval '1 day', 'The park', n % 10 = 5, false,
                now() - n % 1440 * interval '1 minute', 'loadtest-event'
            FROM generate_series(\(first)::int, \(last)::int) n
            ON CONFLICT DO NOTHING
            """)
    }
}
