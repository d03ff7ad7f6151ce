import KindredAPI
import KindredPostgres
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

    /// An upload locks the settings row (one user's batches apply one at a time) and reads its zone, but makes
    /// the row only on the first upload: later ones leave the very same row version, and count in the zone set.
    @Test func onlyTheFirstUploadWritesTheSettingsRow() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let version = {
                try await stack.pool.query(
                    """
                    SELECT xmin::text || ctid::text FROM gamification.usage_settings WHERE user_id = \(anna.id)::uuid
                    """
                ).map { try $0.decode(String.self, column: 0) }
            }
            #expect(try await version().isEmpty)
            try await stack.upload(
                [usageSession("a", "chess", from: "2026-05-01T10:00:00Z", minutes: 30)], as: anna)
            let made = try await version()
            #expect(made.count == 1)
            try await stack.upload(
                [usageSession("b", "chess", from: "2026-05-01T11:00:00Z", minutes: 30)], as: anna)
            #expect(try await version() == made)

            try await stack.setZone("Pacific/Kiritimati", of: anna)
            let set = try await version()
            try await stack.upload(
                [usageSession("c", "chess", from: "2026-05-01T12:00:00Z", minutes: 30)], as: anna)
            #expect(try await version() == set)
            // 12:00 UTC is 02:00 the next day at UTC+14.
            #expect(
                try await stack.dailySeconds(of: anna, app: "chess") == [
                    "2026-05-01": 60 * 60, "2026-05-02": 30 * 60,
                ])
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
