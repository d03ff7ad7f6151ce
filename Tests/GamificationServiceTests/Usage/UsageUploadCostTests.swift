import Foundation
import KindredHandlers
import KindredPostgres
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

/// What one upload costs against how many sessions the user already stored that day (issue 27): for each of
/// `stored` it stores that many sessions of one day for a new user, then makes `uploads` uploads of two sessions
/// each (a new one, and a newer version of the one before, as a screen-time device sends them) through
/// `UsageStore.store`, and reads this database's `pg_stat_statements` (`StatementTally`) for the statements
/// naming `gamification.usage*` or `reward*` (BEGIN and COMMIT not counted). An upload's statements
/// must not grow with the day's history; the figures it prints (statements, buffers and PostgreSQL time an
/// upload, and `store`'s wall time in this build) are what `Services/Gamification/README.md` records:
///
///   KINDRED_TEST_DATABASE_URL=$url swift test --skip-build --filter UsageUploadCostTests
@Suite(.serialized) struct UsageUploadCostTests {
    static let stored = [10, 100, 500]
    static let uploads = 100
    static let apps = (0..<10).map { "app\($0)" }
    static let day = TestClock.parse("2026-05-01T00:00:00Z")

    @Test func anUploadsStatementsDoNotGrowWithTheSessionsStoredThatDay() async throws {
        try await GamificationTestStack.with { stack in
            guard let tally = try await StatementTally.start(on: stack.pool) else {
                Issue.record("the test cluster must preload pg_stat_statements (Tests/postgres-test-cluster)")
                return
            }
            var first: Figures?
            for count in Self.stored {
                let figures = try await Self.measure(storedBefore: count, on: stack.pool, tally: tally)
                first = first ?? figures
                print(
                    String(
                        format:
                            "usage upload cost: %4d stored that day: %.1f statements, %.1f buffers, PostgreSQL "
                            + "%.3f ms (%.2fx the first row), store() %.3f ms a call (this build)",
                        count, figures.statements, figures.buffers, figures.postgres,
                        figures.postgres / (first?.postgres ?? 1), figures.wall))
                #expect(figures.statements == first?.statements, "statements an upload at \(count) stored")
            }
        }
    }

    struct Figures {
        let statements: Double
        let postgres: Double
        let buffers: Double
        let wall: Double
    }

    /// Per upload after `count` sessions: statements, PostgreSQL's execution time, the shared buffers its
    /// statements touched, and the wall time of `store`.
    static func measure(storedBefore count: Int, on pool: PostgresPool, tally: StatementTally) async throws
        -> Figures
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
        try await tally.reset()
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
        // The upload's own statements: the test server's background work shares the database.
        let statements = try await tally.statements().filter {
            $0.text.range(of: "gamification[.](usage|reward)", options: .regularExpression) != nil
        }
        let perUpload = Double(Self.uploads)
        let wallMilliseconds =
            (Double(wall.components.seconds) * 1e3 + Double(wall.components.attoseconds) / 1e15) / perUpload
        return Figures(
            statements: Double(statements.reduce(0) { $0 + $1.calls }) / perUpload,
            postgres: statements.reduce(0) { $0 + $1.milliseconds } / perUpload,
            buffers: Double(statements.reduce(0) { $0 + $1.buffers }) / perUpload, wall: wallMilliseconds)
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
