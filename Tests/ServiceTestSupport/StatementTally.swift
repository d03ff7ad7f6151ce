import Foundation
import KindredPostgres

/// What PostgreSQL ran in one test database, from `pg_stat_statements` (the test cluster preloads it:
/// `deploy/local/postgres.sh`): the statements a stretch of calls cost, each with its calls and time.
struct StatementTally {
    /// One normalized statement's share of the stretch.
    struct Statement {
        let text: String
        let calls: Int
        let milliseconds: Double
        /// Shared buffers its executions touched (hit or read): the figure a busy machine does not blur.
        let buffers: Int

        /// An event sequencer's statement (`EventOutbox+Sequencing.swift`): its check for unsequenced rows, the
        /// advisory lock its numbering takes, or the numbering (`… WHERE cursor IS NULL ORDER BY id LIMIT …`).
        /// They run on the sequencers' clock whatever the calls do (every 20 ms while events come), and the
        /// check and the lock count every outbox's in one entry: the family's two sequencers' locks, a quarter
        /// of AnnounceArrival's calls each, passed the every-other-call line together in a loaded full run, and
        /// so did a feed's numbering once rounds came every 20 ms under load instead of every 100.
        var isSequencerWork: Bool {
            text.contains("WHERE cursor IS NULL") || text == "SELECT pg_advisory_xact_lock($1)"
        }
    }

    let pool: PostgresPool

    /// Makes the view readable in this database; false when the cluster does not preload the library.
    static func start(on pool: PostgresPool) async throws -> StatementTally? {
        let preloaded = try await pool.query("SELECT current_setting('shared_preload_libraries')")[0]
            .decode(String.self)
        guard preloaded.contains("pg_stat_statements") else { return nil }
        try await pool.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        return StatementTally(pool: pool)
    }

    /// Forgets what this database ran so far.
    func reset() async throws {
        try await pool.query(
            """
            SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)
            """)
    }

    /// What this database ran since the last `reset`, busiest first, the tally's own statements left out.
    func statements() async throws -> [Statement] {
        try await pool.query(
            """
            SELECT query, calls, total_exec_time, shared_blks_hit + shared_blks_read FROM pg_stat_statements
            WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND query NOT LIKE '%pg_stat_statements%'
            ORDER BY total_exec_time DESC
            """
        ).map {
            Statement(
                text: try $0.decode(String.self, column: 0), calls: try $0.decode(Int.self, column: 1),
                milliseconds: try $0.decode(Double.self, column: 2),
                buffers: try $0.decode(Int.self, column: 3))
        }
    }
}
