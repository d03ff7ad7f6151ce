import KindredAPI
import KindredMessages
import KindredRuntime
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

/// Identity's `user.deleted` as gamification applies it: the user's usage goes, nobody else's.
@Suite struct UsageAccountEventsTests {
    @Test func aDeletedAccountsUsageAndSettingsGoAndEveryoneElsesStay() async throws {
        try await GamificationTestStack.with { stack in
            let (anna, ben) = (try await stack.register("anna"), try await stack.register("ben"))
            for user in [anna, ben] {
                try await stack.setZone("Europe/Rome", hidden: ["tiktok"], of: user)
                try await stack.upload(
                    [usageSession("s1", "youtube", from: "2026-06-15T08:00:00Z", minutes: 10)], as: user)
            }
            let credentials = try ServiceCredentials(
                clientID: "gamification", clientSecret: FamilyTestStack.gamificationSecret,
                identityTarget: stack.social.base.identityTarget)
            let consumer = AccountEvents.consumer(
                identity: stack.social.base.identity, credentials: credentials, context: stack.context)
            let consuming = Task { await consumer.run() }
            defer { consuming.cancel() }
            _ = try await stack.social.base.identity.deleteAccount(
                .init(password: anna.password), options: anna.bearer)
            try await eventually("gamification forgot anna") {
                try await stack.usageRows(of: anna) == 0
            }
            #expect(try await stack.usageRows(of: ben) == 4)
            consuming.cancel()
            await consuming.value
        }
    }
}
