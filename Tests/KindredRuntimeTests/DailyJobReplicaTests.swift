import Foundation
import KindredPostgres
import KindredTestSupport
import Logging
import Synchronization
import Testing

@testable import KindredRuntime

/// A daily job (retention's purges) run by three replicas of a service, each with its own pool on one
/// database, as three pods on one PostgreSQL: the day runs once, and when its runner dies another takes it over.
@Suite struct DailyJobReplicaTests {
    static let schema = "replica_jobs"
    static var logger: Logger {
        var logger = Logger(label: "daily-job-tests")
        logger.logLevel = .critical
        return logger
    }

    /// Three pools on one fresh database with `daily_jobs`, closed afterwards.
    static func withReplicas(_ body: ([PostgresPool]) async throws -> Void) async throws {
        try await TestDatabase.with(
            "daily_jobs", schemas: [(schema, [DailyJob.migration(schema: schema, version: 1)])],
            logger: logger
        ) { pool in
            let replicas = (0..<3).map { _ in
                PostgresPool(configuration: pool.configuration, logger: logger)
            }
            do {
                try await body(replicas)
            } catch {
                for replica in replicas { await replica.close() }
                throw error
            }
            for replica in replicas { await replica.close() }
        }
    }

    static func job(
        on pool: PostgresPool, clock: TestClock,
        _ work: @escaping @Sendable (Date) async throws -> [String: Int]
    ) -> DailyJob {
        DailyJob(
            name: "purge", schema: schema, pool: pool, logger: logger, now: { clock.now }, work: work)
    }

    @Test func threeReplicasLookingAtOnceRunTheDayOnce() async throws {
        try await Self.withReplicas { replicas in
            let clock = TestClock(TestClock.farFromToday)
            let runs = Atomic<Int>(0)
            let jobs = replicas.map { pool in
                Self.job(on: pool, clock: clock) { _ in
                    ["purged": runs.add(1, ordering: .relaxed).newValue]
                }
            }
            let reports = try await withThrowingTaskGroup(of: [String: Int]?.self) { group in
                for job in jobs { group.addTask { try await job.runIfUnclaimed() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(reports.compactMap { $0 } == [["purged": 1]])
            #expect(runs.load(ordering: .relaxed) == 1)
            // Later the same day, nobody runs it again; the next day, one does.
            clock.advance(seconds: 2 * 3_600)
            for job in jobs { #expect(try await job.runIfUnclaimed() == nil) }
            clock.advance(seconds: 86_400)
            #expect(try await jobs[2].runIfUnclaimed() == ["purged": 2])
        }
    }

    /// The runner's process dies mid-run: its pool goes with it, its claim stays unfinished. Until the claim
    /// lapses the others leave the day alone (the runner may only be slow); then exactly one takes it over.
    @Test func whenTheRunnerDiesMidRunAnotherReplicaTakesTheDayOverOnceItsClaimLapses() async throws {
        try await Self.withReplicas { replicas in
            let clock = TestClock(TestClock.farFromToday)
            let (started, startedNow) = AsyncStream.makeStream(of: Void.self)
            let dying = Self.job(on: replicas[0], clock: clock) { _ in
                startedNow.yield()
                // Dies here: the test closes this replica's pool, as the kernel closes a killed process's sockets.
                try await untilCancelled()
                return ["purged": -1]
            }
            let runner = Task { try await dying.runIfUnclaimed() }
            var waiting = started.makeAsyncIterator()
            await waiting.next()
            runner.cancel()
            await replicas[0].close()
            _ = await runner.result

            let takeovers = Atomic<Int>(0)
            let survivors = replicas.dropFirst().map { pool in
                Self.job(on: pool, clock: clock) { _ in
                    takeovers.add(1, ordering: .relaxed)
                    return ["purged": 1]
                }
            }
            clock.advance(seconds: Double(DailyJob.defaultLease.components.seconds) - 1)
            for job in survivors { #expect(try await job.runIfUnclaimed() == nil) }
            clock.advance(seconds: 1)
            let reports = try await withThrowingTaskGroup(of: [String: Int]?.self) { group in
                for job in survivors { group.addTask { try await job.runIfUnclaimed() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(reports.compactMap { $0 } == [["purged": 1]])
            #expect(takeovers.load(ordering: .relaxed) == 1)
            let stored = try await replicas[1].query(
                "SELECT report::text FROM replica_jobs.daily_jobs WHERE finished_at IS NOT NULL")
            #expect(try stored.map { try $0.decode(String.self, column: 0) } == [#"{"purged": 1}"#])
        }
    }
}
