import Foundation
import KindredAPI
import KindredEvents
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

@Suite struct ChallengeSweepTests {
    /// Past the last day's end and the grace period.
    static let afterGrace: Double = 3 * 86_400 + 13 * 3_600

    @Test func usageWithinTheLimitEveryDayCompletesAndOneDayOverFails() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let ben = try await stack.register("ben")
            let kept = try await stack.createChallenge(anna, limit: 30, days: 2)
            let broken = try await stack.createChallenge(ben, limit: 30, days: 2)
            let first = try #require(kept.firstDay)
            try await stack.recordUsage(anna, on: first.text, minutes: 30)
            try await stack.recordUsage(anna, on: first.next, minutes: 12)
            try await stack.recordUsage(anna, app: "tiktok", on: first.next, minutes: 300)  // another app
            try await stack.recordUsage(ben, on: first.text, minutes: 10)
            try await stack.recordUsage(ben, on: first.next, minutes: 31)
            #expect(try await stack.challenges.sweep() == 0)  // not over yet
            stack.clock.advance(seconds: Self.afterGrace)
            #expect(try await stack.challenges.sweep() == 2)
            let annas = try await stack.gamification.listChallenges(
                .init(list: .finished), options: anna.bearer)
            #expect(annas.challenges.map(\.state) == [.completed])
            let bens = try await stack.gamification.listChallenges(
                .init(list: .finished), options: ben.bearer)
            #expect(bens.challenges.map(\.state) == [.failed])
            #expect(broken.coinAward == 40)  // 10 × 2 days × medium
            let annaCoins = try await stack.gamification.getCoinBalance(.init(), options: anna.bearer)
            #expect(annaCoins.balance == 40)
            let benCoins = try await stack.gamification.getCoinBalance(.init(), options: ben.bearer)
            #expect(benCoins.balance == 0)
            let badges = try await stack.gamification.listBadges(.init(), options: anna.bearer)
            #expect(badges.badges.map(\.kind) == ["medium_finisher"])
            #expect(badges.badges.first?.earnedAt != nil)
        }
    }

    @Test func aLateUploadInsideTheGracePeriodCounts() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let challenge = try await stack.createChallenge(anna, limit: 30, days: 2)
            let first = try #require(challenge.firstDay)
            let endsAt = try #require(challenge.endsAt)
            // The last day ended an hour ago.
            stack.clock.advance(seconds: endsAt.timeIntervalSince(stack.clock.now) + 3_600)
            #expect(try await stack.challenges.sweep() == 0)  // inside the grace period
            try await stack.recordUsage(anna, on: first.next, minutes: 45)  // the late upload
            stack.clock.advance(seconds: 12 * 3_600)
            #expect(try await stack.challenges.sweep() == 1)
            let finished = try await stack.gamification.listChallenges(
                .init(list: .finished), options: anna.bearer)
            #expect(finished.challenges.map(\.state) == [.failed])
        }
    }

    @Test func twoSweepsAtOnceAwardTheBadgeAndTheCoinsOnce() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            for _ in 0..<10 { _ = try await stack.createChallenge(anna, days: 1, difficulty: .easy) }
            stack.clock.advance(seconds: Self.afterGrace)
            let (one, other) = (stack.challenges, stack.challenges)
            async let first = one.sweep()
            async let second = other.sweep()
            #expect(try await first + second == 10)
            #expect(try await one.sweep() == 0)
            let badges = try await stack.pool.query(
                "SELECT count(*) FROM gamification.badges WHERE user_id = \(anna.id)::uuid")
            #expect(try badges[0].decode(Int64.self) == 10)
            let balance = try await stack.gamification.getCoinBalance(.init(), options: anna.bearer)
            #expect(balance.balance == 100)  // 10 × (10 × 1 day × easy)
        }
    }

    @Test func aCompletionProcessedTwiceAwardsItsBadgeAndCoinsOnce() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let annaID = try #require(UserID(anna.id))
            let created = try await stack.createChallenge(anna, days: 1, difficulty: .hard)
            let challenges = stack.challenges
            let challenge = try #require(
                try await ChallengeStore.challenge(created.id, for: annaID, on: stack.pool))
            let now = stack.clock.now
            for _ in 0..<2 {
                // The participant's state reset between the two, as if the first's decision were lost while
                // its coins and badge stayed: only the keyed ledger entry and badge stop a second award.
                try await stack.pool.query(
                    """
                    UPDATE gamification.challenge_participants SET state = 'active'
                    WHERE user_id = \(annaID) AND challenge_id = \(created.id)
                    """)
                try await stack.pool.query(
                    "DELETE FROM gamification.challenge_results WHERE challenge_id = \(created.id)")
                _ = try await stack.pool.transaction { tx in
                    try await challenges.settle(
                        challenge, for: annaID, outcome: "completed", minutesUsed: 0, at: now, in: tx)
                }
            }
            #expect(try await challenges.balance(of: annaID) == 30)
            let badges = try await stack.gamification.listBadges(.init(), options: anna.bearer)
            #expect(badges.badges.count == 1)
        }
    }
}

@Suite struct ChallengeAnnouncementTests {
    @Test func aCompletionIsAnnouncedOnWatchEventsAsCoinsABadgeAndAFinishedChallenge() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let challenge = try await stack.createChallenge(anna, days: 1, difficulty: .hard)
            stack.clock.advance(seconds: ChallengeSweepTests.afterGrace)
            #expect(try await stack.challenges.sweep() == 1)
            let feed = try EventFeed(
                outbox: GamificationEvents.outbox, cipher: TestDataKeys.cipher, pool: stack.pool,
                logger: FamilyTestDatabase.logger)
            var events: [Kindred_Gamification_V1_Event] = []
            for try await stored in feed.events(after: 0) {
                events.append(try EventFeed.message(from: stored))
                if events.count == 3 { break }
            }
            await feed.close()
            #expect(events.map(\.type) == ["coins.changed", "badge.earned", "challenge.finished"])
            guard case .coinsChanged(let coins) = events[0].payload else {
                Issue.record("the first event is \(events[0])")
                return
            }
            #expect(
                coins.userID == anna.id && coins.amount == 30 && coins.challengeID == challenge.challengeID)
            guard case .challengeFinished(let finished) = events[2].payload else {
                Issue.record("the last event is \(events[2])")
                return
            }
            #expect(finished.outcome == .completed)
        }
    }
}
