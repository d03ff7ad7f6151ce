import KindredPostgres

/// The SQL of `identity.sign_in_failures`: the lockout's counters, one row per keyed identifier hash. When a
/// failure counts and how long a lock lasts is `SignInLockout`'s rule; its constants are bound here.
struct SignInFailureStore: Sendable {
    /// The lockout's rule: its constants are the statements' binds.
    private typealias Rule = SignInLockout

    let database: PostgresPool

    /// Counts an attempt on `key` as a failure unless the key is locked; false when the lock refused it.
    ///
    /// Counting and checking are one statement on one row, so concurrent attempts on any instances are
    /// admitted one at a time: after the fifth, the rest see the lock.
    func countUnlessLocked(_ key: [UInt8]) async throws -> Bool {
        let rows = try await database.query(
            """
            INSERT INTO identity.sign_in_failures AS f (identifier_hash, failures, last_failure_at)
            VALUES (\(key), 1, now())
            ON CONFLICT (identifier_hash) DO UPDATE SET
                failures = CASE WHEN f.last_failure_at < now() - \(Rule.memory.wholeSeconds) * interval '1 second'
                    THEN 1 ELSE f.failures + 1 END,
                last_failure_at = now(),
                locked_until = CASE
                    WHEN f.last_failure_at >= now() - \(Rule.memory.wholeSeconds) * interval '1 second'
                        AND f.failures + 1 >= \(Rule.freeFailures)
                    THEN now() + least(
                        \(Rule.firstDelay.wholeSeconds) * power(2, least(f.failures + 1 - \(Rule.freeFailures), 20)),
                        \(Rule.longestDelay.wholeSeconds)) * interval '1 second'
                    END
            WHERE f.locked_until IS NULL OR f.locked_until <= now()
            RETURNING failures
            """)
        return !rows.isEmpty
    }

    /// Deletes the counter of `key`, on the pool or inside a password reset's transaction.
    func delete(_ key: [UInt8], on db: some StatementRunner) async throws {
        try await db.query(
            "DELETE FROM identity.sign_in_failures WHERE identifier_hash = \(key)")
    }

    /// Deletes counters nobody has failed on for `SignInLockout.memory` and whose lock has passed, `limit` a
    /// statement.
    func sweep(batchesOf limit: Int) async throws -> Int {
        try await database.deleteInBatches(
            from: "identity.sign_in_failures",
            where: """
                last_failure_at < now() - \(Rule.memory.wholeSeconds) * interval '1 second'
                    AND (locked_until IS NULL OR locked_until < now())
                """,
            limit: limit)
    }

    /// The whole seconds left of `key`'s lock, rounded up; nil when it has none (any more).
    func remainingLock(_ key: [UInt8]) async throws -> Int64? {
        let rows = try await database.pureRead(
            """
            SELECT ceil(extract(epoch FROM locked_until - now()))::bigint
            FROM identity.sign_in_failures WHERE identifier_hash = \(key)
            """)
        return try rows.first?.decode(Int64?.self, column: 0) ?? nil
    }
}
