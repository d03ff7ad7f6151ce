import Foundation
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

/// A deleted account's usage is gone within 30 days: at once through identity's `user.deleted`, and, for usage
/// uploaded afterwards with a token issued before the deletion, by the daily retention job.
@Suite struct UsageRetentionTests {
    @Test func usageUploadedAfterTheDeletionIsRemovedByTheDailyJob() async throws {
        try await GamificationTestStack.with { stack in
            let gone = try await stack.register("gone")
            let kept = try await stack.register("kept")
            for user in [gone, kept] {
                try await stack.upload(
                    [usageSession("s1", "youtube", from: "2026-06-15T10:00:00Z", minutes: 10)], as: user)
            }
            let events = AccountEvents(clock: stack.context.clock, logger: stack.context.logger)
            try await stack.pool.transaction { tx in
                try await events.apply(
                    Kindred_Identity_V1_Event(payload: .userDeleted(.init(userID: gone.id))), in: tx)
            }
            #expect(try await sessions(of: gone, stack) == 0)
            // An upload with the access token issued before the deletion, still valid for minutes.
            try await stack.upload(
                [usageSession("s2", "youtube", from: "2026-06-15T11:00:00Z", minutes: 5)], as: gone)
            #expect(try await sessions(of: gone, stack) == 1)

            let retention = UsageRetention(context: stack.context)
            let report = try await retention.purge(at: stack.clock.now.addingTimeInterval(86_400))

            #expect(report == ["usage_sessions_removed": 1, "erased_accounts_forgotten": 0])
            #expect(try await sessions(of: gone, stack) == 0)
            #expect(try await sessions(of: kept, stack) == 1)
            #expect(try await stack.usageRows(of: gone) == 0)
            #expect(
                try await stack.pool.query(
                    "SELECT count(*) FROM gamification.usage_daily WHERE user_id = \(gone.id)::uuid")[0]
                    .decode(Int.self, column: 0) == 0)
        }
    }

    @Test func anErasedAccountIsRememberedThirtyDaysThenForgotten() async throws {
        try await GamificationTestStack.with { stack in
            let gone = try await stack.register("gone")
            let events = AccountEvents(clock: stack.context.clock, logger: stack.context.logger)
            try await stack.pool.transaction { tx in
                try await events.apply(
                    Kindred_Identity_V1_Event(payload: .userDeleted(.init(userID: gone.id))), in: tx)
            }
            let retention = UsageRetention(context: stack.context)
            let day: TimeInterval = 86_400

            #expect(
                try await retention.purge(at: stack.clock.now.addingTimeInterval(29 * day))[
                    "erased_accounts_forgotten"] == 0)
            #expect(
                try await retention.purge(at: stack.clock.now.addingTimeInterval(31 * day))[
                    "erased_accounts_forgotten"] == 1)
            #expect(
                try await stack.pool.query("SELECT count(*) FROM gamification.erased_accounts")[0].decode(
                    Int.self, column: 0) == 0)
        }
    }

    private func sessions(of user: TestUser, _ stack: GamificationTestStack) async throws -> Int {
        try await stack.pool.query(
            "SELECT count(*) FROM gamification.usage_sessions WHERE user_id = \(user.id)::uuid"
        )[0].decode(Int.self, column: 0)
    }
}
