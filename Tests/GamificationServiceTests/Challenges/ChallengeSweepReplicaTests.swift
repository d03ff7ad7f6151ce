import Foundation
import KindredPostgres
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

/// The completion sweep run by three replicas of gamification, each with its own pool on one database as
/// pods have: every due participant is decided once between them, and a replica that dies while deciding one
/// leaves that participant to the others (its transaction rolls back with its connection).
@Suite struct ChallengeSweepReplicaTests {
    static let challenges = 12

    /// Three contexts like `stack`'s, each on a pool of its own, closed after `body`.
    static func withReplicas(
        _ stack: GamificationTestStack, _ body: ([GamificationContext]) async throws -> Void
    ) async throws {
        let base = stack.context
        let pools = (0..<3).map { _ in
            PostgresPool(configuration: stack.pool.configuration, logger: base.logger)
        }
        let contexts = pools.map { pool in
            GamificationContext(
                database: pool, clock: base.clock, friends: base.friends, babyMembers: base.babyMembers,
                guardians: base.guardians, usageSessions: base.usageSessions, logger: base.logger)
        }
        do {
            try await body(contexts)
        } catch {
            for pool in pools { await pool.close() }
            throw error
        }
        for pool in pools { await pool.close() }
    }

    /// Badges and coins `user` holds: each decided completion gives one badge and its coins once.
    static func rewards(of user: TestUser, in stack: GamificationTestStack) async throws -> (Int64, Int64) {
        let badges = try await stack.pool.query(
            "SELECT count(*) FROM gamification.badges WHERE user_id = \(user.id)::uuid")[0].decode(Int64.self)
        let coins = try await stack.gamification.getCoinBalance(.init(), options: user.bearer).balance
        return (badges, coins)
    }

    @Test func threeReplicasSweepingAtOnceDecideEachParticipantOnce() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            for _ in 0..<Self.challenges {
                _ = try await stack.createChallenge(anna, days: 1, difficulty: .easy)
            }
            stack.clock.advance(seconds: ChallengeSweepTests.afterGrace)
            try await Self.withReplicas(stack) { replicas in
                let decided = try await withThrowingTaskGroup(of: Int.self) { group in
                    for replica in replicas {
                        group.addTask { try await Challenges(context: replica).sweep() }
                    }
                    return try await group.reduce(0, +)
                }
                #expect(decided == Self.challenges)
            }
            #expect(try await Self.rewards(of: anna, in: stack) == (12, 120))  // 12 × (10 × 1 day × easy)
        }
    }

    @Test func aParticipantWhoseReplicaDiedDecidingItIsDecidedByAnother() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            for _ in 0..<Self.challenges {
                _ = try await stack.createChallenge(anna, days: 1, difficulty: .easy)
            }
            stack.clock.advance(seconds: ChallengeSweepTests.afterGrace)
            try await Self.withReplicas(stack) { replicas in
                // Replica 0 claims one participant and dies before deciding it.
                let deadline = stack.clock.now.addingTimeInterval(
                    -Double(Challenges.gracePeriod.components.seconds))
                let (claimed, claimedNow) = AsyncStream.makeStream(of: Int32.self)
                let dying = Task {
                    try await replicas[0].database.transaction { tx in
                        _ = try await ChallengeStore.claimDue(before: deadline, in: tx)
                        claimedNow.yield(try await tx.query("SELECT pg_backend_pid()")[0].decode(Int32.self))
                        try await untilCancelled()
                    }
                }
                var waiting = claimed.makeAsyncIterator()
                let dyingBackend = try #require(await waiting.next())
                // While it holds its claim the others decide every other participant, and wait for none.
                let decidedMeanwhile = try await Challenges(context: replicas[1]).sweep()
                #expect(decidedMeanwhile == Self.challenges - 1)
                dying.cancel()
                await replicas[0].database.close()
                _ = await dying.result
                // PostgreSQL rolls the dead connection's transaction back once it notices the connection gone.
                try await eventually("the dead replica's backend is gone") {
                    try await stack.pool.query(
                        "SELECT count(*) FROM pg_stat_activity WHERE pid = \(dyingBackend)")[0].decode(
                            Int.self) == 0
                }
                let takenOver = try await Challenges(context: replicas[2]).sweep()
                let left = try await Challenges(context: replicas[1]).sweep()
                #expect((takenOver, left) == (1, 0))
            }
            #expect(try await Self.rewards(of: anna, in: stack) == (12, 120))
        }
    }
}
