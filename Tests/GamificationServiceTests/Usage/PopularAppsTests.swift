import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

/// The popular apps: seeded, read by anyone, replaced by admins only.
@Suite struct PopularAppsTests {
    @Test func anyoneReadsTheSeededAppsAndOnlyAnAdminReplacesThem() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let seeded = try await stack.gamification.listPopularApps(.init(), options: anna.bearer).apps
            #expect(seeded.map(\.appID) == ["instagram", "whatsapp", "youtube", "tiktok", "facebook"])
            let apps = [Kindred_Gamification_V1_PopularApp(appID: "snapchat", name: "Snapchat"), seeded[2]]
            let refused = await rpcError {
                try await stack.gamification.setPopularApps(.init(apps: apps), options: anna.bearer)
            }
            #expect(refused?.code == .permissionDenied)

            let admin = try await stack.register("root")
            try await stack.pool.query(
                "UPDATE identity.accounts SET role = 'admin' WHERE id = \(admin.id)::uuid")
            let token = try await stack.social.base.identity.token(
                .init(grantType: "password", username: admin.username, password: admin.password),
                options: FamilyTestStack.bearer(nil))
            _ = try await stack.gamification.setPopularApps(
                .init(apps: apps), options: FamilyTestStack.bearer(token.accessToken))
            #expect(try await stack.gamification.listPopularApps(.init(), options: anna.bearer).apps == apps)
        }
    }

    @Test func aListWithBadOrRepeatedEntriesNamesEveryOne() async throws {
        try await GamificationTestStack.with { stack in
            let apps = [
                Kindred_Gamification_V1_PopularApp(appID: "you tube", name: "YouTube"),
                Kindred_Gamification_V1_PopularApp(appID: "x", name: " "),
                Kindred_Gamification_V1_PopularApp(appID: "x", name: "X"),
            ]
            let error = await rpcError {
                try await PopularApps(database: stack.pool).replace(.init(apps: apps))
            }
            #expect(error?.badFields == ["apps[0].app_id", "apps[1].name", "apps[2].app_id"])
        }
    }
}
