import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Settings: a real IANA zone, hidden apps and the standing app, read back as set.
@Suite struct UsageSettingsTests {
    @Test func settingsAreTheDefaultsUntilSetThenWhatWasSet() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let before = try await stack.gamification.getUsageSettings(.init(), options: anna.bearer).settings
            #expect(before?.timeZone == "UTC")
            try await stack.setZone(
                "America/New_York", hidden: ["tiktok", "tiktok", "youtube"], standing: "instagram", of: anna)
            let after = try await stack.gamification.getUsageSettings(.init(), options: anna.bearer).settings
            #expect(
                after
                    == .init(
                        timeZone: "America/New_York", hiddenApps: ["tiktok", "youtube"],
                        standingAppID: "instagram"))
        }
    }

    @Test(arguments: ["Mars/Olympus_Mons", "EST5EDT", "posix/Europe/Rome", ""])
    func aZoneThatIsNoIANANameIsRefused(_ zone: String) async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let error = await rpcError { try await stack.setZone(zone, of: anna) }
            #expect(error?.code == .invalidArgument)
            #expect(error?.badFields == ["settings.time_zone"])
        }
    }

    @Test func listingSessionsRestoresTheWholeHistoryPageByPage() async throws {
        try await GamificationTestStack.with { stack in
            let ben = try await stack.register("ben")
            let sessions = (0..<5).map { index in
                usageSession("s\(index)", "youtube", from: "2026-06-1\(index)T08:00:00Z", minutes: 10)
            }
            try await stack.upload(sessions.reversed(), as: ben)
            var restored: [Kindred_Gamification_V1_UsageSession] = []
            var token = ""
            repeat {
                let page = try await stack.gamification.listUsageSessions(
                    .init(page: .init(pageSize: 2, pageToken: token)), options: ben.bearer)
                restored += page.sessions
                token = page.page?.nextPageToken ?? ""
            } while !token.isEmpty
            #expect(restored == sessions)
            let range = try await stack.gamification.listUsageSessions(
                .init(startTime: sessions[1].startTime, endTime: sessions[3].startTime), options: ben.bearer)
            #expect(range.sessions.map(\.clientSessionID) == ["s1", "s2"])
        }
    }
}
