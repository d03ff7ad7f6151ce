import LoadTestKit
import KindredPostgres

/// Writes seeded users straight into the services' tables through each service's own database role: one
/// statement per table per batch (generate_series), never one RPC per row. What goes in is what the services
/// would have written: identity's account (email verified, the shared password hash; a minor with parental
/// controls on where `SeededUsers.isMinor`) with a refresh chain and its token, social's person and both rows
/// of each friendship (`SeedWriter+Social`: follows, blocks, events), family's controls and guardian links of the
/// minors. Every insert skips rows already there, so a batch cut short by a crash is simply written again.
struct SeedWriter: Sendable {
    let identity: PostgresPool
    let social: PostgresPool
    let family: PostgresPool
    let seed: SeedFile

    /// Users `range` of the seed, in one transaction per database.
    func write(_ range: Range<Int>) async throws {
        let (first, last, tag, secret) = (
            range.lowerBound, range.upperBound - 1, seed.seededUsers.tag, seed.secret
        )
        let (users, hash) = (seed.users, seed.passwordHash)
        let reach = max(1, min(seed.friendsPerSide, (users - 1) / 2))
        try await identity.transaction { tx in
            try await tx.query(
                """
                INSERT INTO identity.accounts (id, username, email, password_hash, date_of_birth, age_band,
                    age_assurance_method, age_assured_at, parental_controls, email_verified_at)
                SELECT (\(tag) || '-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid, 'lt_' || \(tag) || '_' || n,
                    'lt_' || \(tag) || '_' || n || '@loadtest.invalid', \(hash),
                    CASE WHEN n % 10 = 8 THEN date '2010-06-01' ELSE date '1980-01-01' END,
                    CASE WHEN n % 10 = 8 THEN '16-17' ELSE '18+' END, 'self_declared', now(), n % 10 = 8, now()
                FROM generate_series(\(first)::int, \(last)::int) n
                ON CONFLICT DO NOTHING
                """)
            try await tx.query(
                """
                INSERT INTO identity.refresh_chains (id, account_id, expires_at)
                SELECT (\(tag) || '-0001-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid,
                    (\(tag) || '-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid, now() + interval '30 days'
                FROM generate_series(\(first)::int, \(last)::int) n
                ON CONFLICT DO NOTHING
                """)
            try await tx.query(
                """
                INSERT INTO identity.refresh_tokens (token_hash, chain_id, expires_at)
                SELECT sha256(convert_to(encode(sha256(convert_to(\(secret) || ':' || n, 'UTF8')), 'hex'), 'UTF8')),
                    (\(tag) || '-0001-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid, now() + interval '30 days'
                FROM generate_series(\(first)::int, \(last)::int) n
                ON CONFLICT DO NOTHING
                """)
        }
        try await social.transaction { tx in
            try await tx.query(
                """
                INSERT INTO social.people (user_id, username, minor, learned_at)
                SELECT (\(tag) || '-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid, 'lt_' || \(tag) || '_' || n,
                    n % 10 = 8, now()
                FROM generate_series(\(first)::int, \(last)::int) n
                ON CONFLICT DO NOTHING
                """)
            try await tx.query(
                """
                INSERT INTO social.friendships (user_id, friend_id, since)
                SELECT (\(tag) || '-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid,
                    (\(tag) || '-0000-4000-8000-' || lpad(to_hex(f), 12, '0'))::uuid, now()
                FROM generate_series(\(first)::int, \(last)::int) n,
                    generate_series(1, \(reach)::int) d,
                    LATERAL (VALUES ((n + d) % \(users)::int), ((n - d + \(users)::int) % \(users)::int)) AS v(f)
                WHERE f <> n
                ON CONFLICT DO NOTHING
                """)
            try await writeFollowsAndBlocks(first: first, last: last, reach: reach, in: tx)
            try await writeEvents(first: first, last: last, in: tx)
        }
        try await family.transaction { tx in try await writeGuardians(first: first, last: last, in: tx) }
    }
}
