import Foundation
@testable import IdentityService
import KindredAuth
import KindredPostgres
import KindredTestSupport
import Testing

/// Identity as three replicas on one database, each with its own pool as pods have: the sign-in lockout
/// counts every replica's failures together, and the day's coming-of-age sweep runs once, taken over by
/// another replica when the one sweeping dies.
@Suite struct IdentityReplicaTests {
    /// Three pools on `pool`'s database, closed after `body`.
    static func withReplicaPools(_ pool: PostgresPool, _ body: ([PostgresPool]) async throws -> Void)
        async throws
    {
        let pools = (0..<3).map { _ in
            PostgresPool(configuration: pool.configuration, logger: IdentityTestDatabase.logger)
        }
        do {
            try await body(pools)
        } catch {
            for replica in pools { await replica.close() }
            throw error
        }
        for replica in pools { await replica.close() }
    }

    @Test func signInAttemptsSpreadOverThreeReplicasGetFiveTriesBetweenThem() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            try await Self.withReplicaPools(pool) { pools in
                let first = try await SignInFixture(pools[0])
                var fixtures = [first]
                for other in pools.dropFirst() {
                    fixtures.append(try await SignInFixture(other, secret: first.secret))
                }
                let replicas = fixtures
                try await first.account("mia_r")
                let answers = await withTaskGroup(of: String.self) { group in
                    for index in 0..<15 {
                        group.addTask { await SignInLockoutTests.attempt(replicas[index % 3], "mia_r") }
                    }
                    return await group.reduce(into: [String]()) { $0.append($1) }
                }
                #expect(answers.filter { $0 == "INVALID_CREDENTIALS" }.count == 5)
                #expect(answers.filter { $0 == "SIGN_IN_LOCKED" }.count == 10)
                // The right password is refused on every replica while the lock lasts.
                for replica in replicas {
                    #expect(
                        await SignInLockoutTests.attempt(replica, "mia_r", SignInFixture.password)
                            == "SIGN_IN_LOCKED")
                }
            }
        }
    }

    /// The sweeping replica is killed halfway through the day's minors (it waits on a row the test holds):
    /// its claim of the day and its changes roll back with its connection, and of the two replicas waiting
    /// on its claim exactly one sweeps the whole day.
    @Test func whenTheSweepingReplicaDiesAnotherSweepsTheWholeDayOnce() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let clock = TestClock(TestClock.farFromToday)
            let setup = TestAccounts(pool, clock: clock)
            var teens: [String] = []
            for index in 0..<5 {
                teens.append(try await setup.register("teen\(index)", born: (2043, 3, 15)).id.description)
            }
            clock.advance(seconds: 86_400)
            try await Self.withReplicaPools(pool) { pools in
                let replicas = pools.map { TestAccounts($0, clock: clock) }
                let survivors = try await pool.transaction { held in
                    // The last minor in id order stays locked: the first sweep stops there, halfway.
                    try await held.query(
                        "SELECT 1 FROM identity.accounts WHERE id = \(teens.max()!)::uuid FOR UPDATE")
                    let dying = Task { try await replicas[0].accounts.sweepComingOfAge() }
                    let victim = try await Self.waitingBackends(count: 1, on: pool)[0]
                    let survivors = replicas.dropFirst().map { replica in
                        Task { try await replica.accounts.sweepComingOfAge() }
                    }
                    // Both wait for the dying sweep's claim of the day.
                    _ = try await Self.waitingBackends(count: 3, on: pool)
                    // What a SIGKILL does to PostgreSQL's side: the connection drops, the transaction aborts.
                    try await pool.query("SELECT pg_terminate_backend(\(victim))")
                    #expect(await dying.result.isFailure)
                    return survivors
                }
                var outcomes: [Accounts.SweepOutcome] = []
                for survivor in survivors { outcomes.append(try await survivor.value) }
                let today = CalendarDate(utcDayOf: clock.now)
                #expect(outcomes.filter { $0 == .swept(day: today, changed: 5, cameOfAge: 5) }.count == 1)
                #expect(outcomes.filter { $0 == .alreadySwept(day: today) }.count == 1)
                #expect(try await TestEvents.types(pool).filter { $0 == "user.came_of_age" }.count == 5)
            }
        }
    }

    /// The PostgreSQL backends of this database waiting on a lock, once there are `count` of them.
    static func waitingBackends(count: Int, on pool: PostgresPool) async throws -> [Int32] {
        let waiting = {
            try await pool.query(
                """
                SELECT pid FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock' ORDER BY backend_start
                """
            ).decode(Int32.self)
        }
        try await eventually("\(count) backends wait on a lock") { try await waiting().count == count }
        return try await waiting()
    }
}

extension Result {
    fileprivate var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
