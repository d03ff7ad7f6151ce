public import KindredPostgres
import Synchronization
import Testing

/// What `PostgresTransaction.queryAtCommit` promises, played on `pool` wherever its transactions run (a
/// loop's own connections, or the pool's threads): statements deferred to the commit commit with it, after
/// the statements run directly; one that fails rolls the whole transaction back and the commit throws its
/// error; the connection then serves the next transaction. A deferred statement's rows reach its reader once
/// the transaction committed, and never when it rolled back. `table` (int8 primary key `id`) starts empty.
public enum DeferredStatementScenario {
    public static func play(on pool: PostgresPool, table: String) async throws {
        let insert = { (id: Int) -> PostgresQuery in "INSERT INTO \(unsafeSQL: table) (id) VALUES (\(id))" }
        let answered = AnsweredIDs()
        let read = { (id: Int) -> (PostgresQuery, @Sendable (PostgresRows) -> Void) in
            (
                "INSERT INTO \(unsafeSQL: table) (id) VALUES (\(id)) RETURNING id",
                { rows in
                    answered.ids.withLock { $0 += rows.compactMap { try? $0.decode(Int.self) } }
                }
            )
        }
        // Only deferred statements: BEGIN, they and COMMIT go out together.
        try await pool.transaction { tx in tx.queryAtCommit(insert(1)) }
        // After a direct statement, in order: the deferred one sees its write.
        try await pool.transaction { tx in
            try await tx.query(insert(2))
            tx.queryAtCommit(
                "INSERT INTO \(unsafeSQL: table) (id) SELECT max(id) + 1 FROM \(unsafeSQL: table)")
        }
        // A deferred insert that collides: the unique violation is the commit's error; nothing of it stays.
        let error = await #expect(throws: PostgresError.self) {
            try await pool.transaction { tx in
                try await tx.query(insert(4))
                let (returning, reader) = read(8)
                tx.queryAtCommit(returning, answered: reader)
                tx.queryAtCommit(insert(1))
                tx.queryAtCommit(insert(5))
            }
        }
        #expect(error?.isUniqueViolation == true)
        try await pool.transaction { tx in tx.queryAtCommit(insert(6)) }
        #expect(answered.ids.withLock { $0 }.isEmpty)
        try await pool.transaction { tx in
            try await tx.query(insert(7))
            let (returning, reader) = read(9)
            tx.queryAtCommit(returning, answered: reader)
            #expect(answered.ids.withLock { $0 }.isEmpty)
        }
        #expect(answered.ids.withLock { $0 } == [9])
        let ids = try await pool.query("SELECT id FROM \(unsafeSQL: table) ORDER BY id").map {
            try $0.decode(Int.self)
        }
        #expect(ids == [1, 2, 3, 6, 7, 9])
        try await readersAreLetGo(on: pool)
    }

    /// A reader that holds its transaction's handle, as the services' readers do to announce in it, is let go
    /// once the transaction ended, committed or rolled back: the handle holds the reader, and the two kept
    /// each other (and the transaction's rows) alive for good.
    static func readersAreLetGo(on pool: PostgresPool) async throws {
        let freed = FreedReaders()
        try await pool.transaction { tx in
            let held = Held { freed.count.withLock { $0 += 1 } }
            tx.queryAtCommit("SELECT 1") { _ in withExtendedLifetime((held, tx)) {} }
        }
        #expect(freed.count.withLock { $0 } == 1, "a committed transaction's reader is let go")
        await #expect(throws: PostgresError.self) {
            try await pool.transaction { tx in
                let held = Held { freed.count.withLock { $0 += 1 } }
                tx.queryAtCommit("SELECT 1") { _ in withExtendedLifetime((held, tx)) {} }
                try await tx.query("SELECT 1 / 0")
            }
        }
        #expect(freed.count.withLock { $0 } == 2, "a rolled-back transaction's reader is let go")
    }
}

/// Something a reader holds, which says when it is let go.
private final class Held: Sendable {
    let onRelease: @Sendable () -> Void
    init(onRelease: @escaping @Sendable () -> Void) { self.onRelease = onRelease }
    deinit { onRelease() }
}

/// How many readers' holdings were let go.
private final class FreedReaders: Sendable {
    let count = Mutex(0)
}

/// The ids deferred statements' readers were handed.
private final class AnsweredIDs: Sendable {
    let ids = Mutex<[Int]>([])
}
