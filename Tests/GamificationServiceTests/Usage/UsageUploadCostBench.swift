import Foundation
import KindredHandlers
import KindredPostgres
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

/// What one upload costs against how many sessions the user already stored that day (issue 27): for each of
/// `stored` it stores that many sessions of one day for a new user, then times `uploads` uploads of two sessions
/// each (a new one, and a newer version of the one before, as a screen-time device sends them), through
/// `UsageStore.store`. PostgreSQL's time and statement count per upload come from `pg_stat_statements` (the
/// cluster needs `shared_preload_libraries = 'pg_stat_statements'`); the first row is the reference the others
/// are compared to. Run alone, on a quiet cluster:
///
///   KINDRED_USAGE_BENCH=1 KINDRED_TEST_DATABASE_URL=$url swift test --skip-build --filter UsageUploadCostBench
@Suite(.enabled(if: ProcessInfo.processInfo.environment["KINDRED_USAGE_BENCH"] != nil), .serialized)
struct UsageUploadCostBench {
    static let stored = [10, 100, 500]
    static let uploads = 100
    static let apps = (0..<10).map { "app\($0)" }
    static let day = TestClock.parse("2026-05-01T00:00:00Z")

    @Test func anUploadsCostAgainstTheSessionsStoredThatDay() async throws {
        try await GamificationTestStack.with { stack in
            try await stack.pool.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            var reference: Double?
            for count in Self.stored {
                let figures = try await Self.measure(storedBefore: count, on: stack.pool)
                reference = reference ?? figures.postgres
                print(
                    String(
                        format:
                            "usage upload bench: %4d stored that day: %.1f statements, %.1f buffers, PostgreSQL "
                            + "%.3f ms (%.2fx the first row), store() %.3f ms a call (this build)",
                        count, figures.statements, figures.blocks, figures.postgres,
                        figures.postgres / (reference ?? 1), figures.wall))
            }
        }
    }

    /// Per upload after `count` sessions: statements, PostgreSQL's execution time, the shared buffers its
    /// statements touched (the figure a busy machine does not blur), and the wall time of `store`.
    static func measure(storedBefore count: Int, on pool: PostgresPool) async throws
        -> (statements: Double, postgres: Double, blocks: Double, wall: Double)
    {
        let user = UserID(UUID())
        let sealing = GamificationTestServer.usageSessions
        let seeded = (0..<count).map { index in
            session(
                "seed-\(index)", Self.apps[index % Self.apps.count], minute: Double(index) * 2, length: 1.5)
        }
        for part in stride(from: 0, to: seeded.count, by: 100) {
            _ = try await UsageStore.store(
                Array(seeded[part..<min(part + 100, seeded.count)]), of: user, sealing: sealing, on: pool)
        }
        try await pool.query("SELECT pg_stat_statements_reset()")
        let clock = ContinuousClock()
        var wall = Duration.zero
        for index in 0..<Self.uploads {
            let minute = 1_100 + Double(index) * 3
            let batch = [
                session("live-\(index)", "app\(index % 3)", minute: minute, length: 2),
                session(
                    "live-\(index - 1)", "app\((index + 2) % 3)", minute: minute - 3, length: 3,
                    updatedLater: true),
            ]
            wall += try await clock.measure {
                _ = try await UsageStore.store(
                    index == 0 ? [batch[0]] : batch, of: user, sealing: sealing, on: pool)
            }
        }
        let (calls, milliseconds, blocks) = try await pool.query(
            """
            SELECT sum(calls)::bigint, sum(total_exec_time)::float8,
                sum(shared_blks_hit + shared_blks_read)::bigint
            FROM pg_stat_statements
            WHERE query ~* 'gamification[.](usage|reward)' AND query !~* 'pg_stat_statements'
            """)[0].decode((Int, Double, Int).self)
        let perUpload = Double(Self.uploads)
        let wallMilliseconds =
            (Double(wall.components.seconds) * 1e3 + Double(wall.components.attoseconds) / 1e15) / perUpload
        return (
            Double(calls) / perUpload, milliseconds / perUpload, Double(blocks) / perUpload, wallMilliseconds
        )
    }

    /// A session of `app` from `minute` minutes into the day, `length` minutes long.
    static func session(
        _ id: String, _ app: String, minute: Double, length: Double, updatedLater: Bool = false
    ) -> UsageBatch.Session {
        let start = day.addingTimeInterval(minute * 60)
        let end = start.addingTimeInterval(length * 60)
        return UsageBatch.Session(
            clientSessionID: id, appID: app, start: start, end: end,
            updatedAt: end.addingTimeInterval(updatedLater ? 600 : 0))
    }
}
