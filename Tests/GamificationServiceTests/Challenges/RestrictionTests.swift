import Foundation
import KindredAPI
import KindredHandlers
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

@Suite struct RestrictionTests {
    @Test func minutesLeftTodayAreTheLimitLessTodaysUsageAndNeverBelowZero() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let challenge = try await stack.createChallenge(anna, app: "instagram", limit: 30, days: 2)
            let before = try await stack.gamification.getActiveRestrictions(.init(), options: anna.bearer)
            #expect(before.restrictions.isEmpty)  // it starts at the next midnight
            stack.clock.advance(seconds: 86_400)
            let first = try #require(challenge.firstDay)
            try await stack.recordUsage(anna, app: "instagram", on: first.text, minutes: 12)
            try await stack.recordUsage(anna, app: "youtube", on: first.text, minutes: 200)
            let during = try await stack.gamification.getActiveRestrictions(.init(), options: anna.bearer)
            let restriction = try #require(during.restrictions.first)
            #expect(during.restrictions.count == 1)
            #expect(restriction.challengeID == challenge.challengeID)
            #expect(restriction.appID == "instagram")
            #expect(restriction.minutesUsedToday == 12)
            #expect(restriction.minutesLeftToday == 18)
            #expect(restriction.challengeEndsAt == challenge.endsAt)
            let dayEnd = try #require(restriction.dayEndsAt)
            #expect(
                dayEnd > stack.clock.now && dayEnd <= stack.clock.now.addingTimeInterval(86_400))
            try await stack.recordUsage(anna, app: "instagram", on: first.text, minutes: 45)
            let over = try await stack.gamification.getActiveRestrictions(.init(), options: anna.bearer)
            #expect(over.restrictions.first?.minutesLeftToday == 0)
        }
    }
}
