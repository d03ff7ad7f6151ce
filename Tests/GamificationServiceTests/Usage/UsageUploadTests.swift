import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

/// Uploads: the newest version of a session wins, and a batch is stored whole or not at all.
@Suite struct UsageUploadTests {
    @Test func aNewerVersionReplacesTheOldAndMovesTheDaysByTheDifference() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            try await stack.setZone("Europe/Rome", of: anna)
            let first = usageSession(
                "s1", "youtube", from: "2026-05-01T21:30:00Z", minutes: 90, updated: "2026-05-02T00:00:00Z")
            #expect(try await stack.upload([first], as: anna).stored == 1)
            // The device trimmed the session to end before midnight: 2 May loses all it had.
            let newer = usageSession(
                "s1", "youtube", from: "2026-05-01T21:30:00Z", minutes: 20, updated: "2026-05-02T01:00:00Z")
            let replaced = try await stack.upload([newer], as: anna)
            #expect((replaced.stored, replaced.unchanged) == (1, 0))
            #expect(try await stack.dailySeconds(of: anna, app: "youtube") == ["2026-05-01": 1_200])
        }
    }

    @Test func aNewerVersionAfterAZoneChangeTakesBackWhatTheOldZoneCounted() async throws {
        try await GamificationTestStack.with { stack in
            let dora = try await stack.register("dora")
            try await stack.upload(
                [
                    usageSession(
                        "s1", "youtube", from: "2026-05-01T23:30:00Z", minutes: 60,
                        updated: "2026-05-02T01:00:00Z")
                ],
                as: dora)
            #expect(
                try await stack.dailySeconds(of: dora, app: "youtube") == [
                    "2026-05-01": 1_800, "2026-05-02": 1_800,
                ])
            try await stack.setZone("Europe/Rome", of: dora)
            // Days counted in UTC stay until a newer version comes; that one counts in Rome (01:30 to 02:30).
            try await stack.upload(
                [
                    usageSession(
                        "s1", "youtube", from: "2026-05-01T23:30:00Z", minutes: 60,
                        updated: "2026-05-02T02:00:00Z")
                ],
                as: dora)
            #expect(try await stack.dailySeconds(of: dora, app: "youtube") == ["2026-05-02": 3_600])
        }
    }

    @Test func anOlderOrEqualVersionChangesNothing() async throws {
        try await GamificationTestStack.with { stack in
            let ben = try await stack.register("ben")
            let current = usageSession(
                "s1", "youtube", from: "2026-05-01T10:00:00Z", minutes: 30, updated: "2026-05-01T11:00:00Z")
            try await stack.upload([current], as: ben)
            let older = usageSession(
                "s1", "youtube", from: "2026-05-01T10:00:00Z", minutes: 90, updated: "2026-05-01T10:59:00Z")
            #expect(try await stack.upload([older], as: ben).unchanged == 1)
            #expect(try await stack.upload([current], as: ben).unchanged == 1)
            #expect(try await stack.dailySeconds(of: ben, app: "youtube") == ["2026-05-01": 1_800])
        }
    }

    @Test func aBatchWithBadEntriesNamesEveryOneAndStoresNothing() async throws {
        try await GamificationTestStack.with { stack in
            let cleo = try await stack.register("cleo")
            stack.clock.set("2026-06-15T12:00:00Z")
            let batch = [
                usageSession("good", "youtube", from: "2026-06-15T08:00:00Z", minutes: 10),
                usageSession("inverted", "youtube", from: "2026-06-15T09:00:00Z", minutes: -5),
                usageSession("long", "tiktok", from: "2026-06-10T09:00:00Z", minutes: 25 * 60),
                usageSession("future", "whatsapp", from: "2026-06-15T11:59:00Z", minutes: 30),
                usageSession("overlap", "youtube", from: "2026-06-15T08:05:00Z", minutes: 10),
                usageSession("good", "instagram", from: "2026-06-15T07:00:00Z", minutes: 10),
            ]
            let error = await rpcError { try await stack.upload(batch, as: cleo) }
            #expect(error?.code == .invalidArgument)
            #expect(
                error?.badFields == [
                    "sessions[1].end_time", "sessions[2].end_time", "sessions[3].end_time",
                    "sessions[3].updated_at", "sessions[5].client_session_id", "sessions[4].start_time",
                ])
            #expect(try await stack.usageRows(of: cleo) == 0)
        }
    }

    @Test(arguments: [0, 501])
    func aBatchOfNoneOrOver500IsRefused(_ size: Int) throws {
        let sessions = (0..<size).map { index in
            usageSession("s\(index)", "app\(index)", from: "2026-06-15T08:00:00Z", minutes: 1)
        }
        let error = #expect(throws: RPCError.self) {
            try UsageBatch(.init(sessions: sessions), now: TestClock.parse("2026-06-15T12:00:00Z"))
        }
        #expect(error?.badFields == ["sessions"])
    }

    @Test func fiveHundredSessionsAreOneBatch() throws {
        let sessions = (0..<500).map { index in
            usageSession("s\(index)", "app\(index)", from: "2026-06-15T08:00:00Z", minutes: 1)
        }
        let batch = try UsageBatch(.init(sessions: sessions), now: TestClock.parse("2026-06-15T12:00:00Z"))
        #expect(batch.sessions.count == 500)
    }
}
