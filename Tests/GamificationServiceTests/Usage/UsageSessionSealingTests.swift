import Foundation
import KindredAPI
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

/// Usage sessions at rest: which app and when are sealed in `usage_sessions` (a dump shows neither), read back
/// through the API as uploaded; sessions from before sealing, or under an older key, stay readable and are
/// sealed again by `keys rotate-data` while uploads run.
@Suite struct UsageSessionSealingTests {
    @Test func aSessionsAppAndTimesAreSealedAndComeBackThroughTheAPI() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let session = usageSession("s1", "moodjournal", from: "2026-05-01T03:17:00Z", minutes: 25)
            try await stack.upload([session], as: anna)

            let listed = try await stack.gamification.listUsageSessions(.init(), options: anna.bearer)
            #expect(listed.sessions == [session])
            #expect(try await stack.dailySeconds(of: anna, app: "moodjournal") == ["2026-05-01": 1_500])
            let stored = try await stack.pool.query(
                """
                SELECT num_nonnulls(app_id, started_at, ended_at, updated_at), session_sealed IS NOT NULL
                FROM gamification.usage_sessions WHERE user_id = \(anna.id)::uuid
                """)
            #expect(try stored[0].decode((Int, Bool).self) == (0, true))
            let dump = try await dataDump(of: "gamification", on: stack.pool)
            let sessions = try #require(Self.copy(of: "usage_sessions", in: dump))
            #expect(sessions.contains("s1") && !sessions.contains("moodjournal"))
            // What stays plain is the day's total per app (usage_daily); no time of the session is anywhere.
            #expect(!dump.contains("03:17") && !dump.contains("03:42"))
        }
    }

    @Test func oldSessionsAreReadAndRotateDataSealsThemUnderTheCurrentKeyWhileUploadsRun() async throws {
        try await GamificationTestStack.with { stack in
            let ben = try await stack.register("ben")
            let written = [
                usageSession("plain", "chess", from: "2026-05-01T10:00:00Z", minutes: 30),
                usageSession("old-key", "piano", from: "2026-05-01T11:00:00Z", minutes: 20),
                usageSession("replaced", "chess", from: "2026-05-01T12:00:00Z", minutes: 40),
            ]
            try await stack.upload(written, as: ben)
            let user = try #require(UserID(ben.id))
            for id in ["plain", "replaced"] { try await stack.unseal(id, of: user) }
            let old = UsageSessions(cipher: TestDataKeys.old)
            let piano = UsageBatch.Session(
                clientSessionID: "old-key", appID: "piano", start: TestClock.parse("2026-05-01T11:00:00Z"),
                end: TestClock.parse("2026-05-01T11:20:00Z"),
                updatedAt: TestClock.parse("2026-05-01T11:20:00Z"))
            try await stack.pool.query(
                """
                UPDATE gamification.usage_sessions SET session_sealed = \(old.seal(piano, of: user))::bytea
                WHERE user_id = \(user)::uuid AND client_session_id = 'old-key'
                """)
            let listed = try await stack.gamification.listUsageSessions(.init(), options: ben.bearer)
            #expect(listed.sessions == written)

            // A newer version of a plaintext session takes back what the plaintext one counted.
            try await stack.upload(
                [
                    usageSession(
                        "replaced", "chess", from: "2026-05-01T12:00:00Z", minutes: 10,
                        updated: "2026-05-01T13:00:00Z")
                ], as: ben)
            #expect(try await stack.dailySeconds(of: ben, app: "chess") == ["2026-05-01": 2_400])

            let rotation = UsageSessionRotation(
                database: stack.pool, sessions: GamificationTestServer.usageSessions)
            async let resealed = rotation.resealAll()
            for index in 0..<20 {
                try await stack.upload(
                    [
                        usageSession(
                            "during-\(index)", "piano", from: "2026-05-02T0\(index / 6):\(index % 6)0:00Z",
                            minutes: 5)
                    ],
                    as: ben)
            }
            #expect(try await resealed == 2)

            let sealed = try await stack.pool.query(
                "SELECT app_id IS NULL, session_sealed FROM gamification.usage_sessions WHERE user_id = \(user)::uuid"
            )
            let keys = try sealed.map { row in
                try row.decode(Bool.self, column: 0)
                    ? FieldCipher.keyID(of: try row.decode([UInt8].self, column: 1)) : "plaintext"
            }
            #expect(keys.count == 23 && Set(keys) == ["test-2"])
            let all = try await stack.gamification.listUsageSessions(
                .init(page: .init(pageSize: 100)), options: ben.bearer)
            #expect(all.sessions.count == 23 && all.sessions.first == written[0])
            #expect(
                try await stack.dailySeconds(of: ben, app: "piano") == [
                    "2026-05-01": 1_200, "2026-05-02": 6_000,
                ])
            #expect(try await rotation.resealAll() == 0)
        }
    }

    @Test func pagesOfHistoryKeepTheirOrderWhenManySessionsShareADay() async throws {
        try await GamificationTestStack.with { stack in
            let cleo = try await stack.register("cleo")
            let starts = [
                "2026-06-01T23:50:00Z", "2026-06-01T08:00:00Z", "2026-06-01T12:00:00Z",
                "2026-06-02T09:00:00Z",
                "2026-06-04T07:00:00Z", "2026-06-04T07:30:00Z", "2026-06-04T06:00:00Z",
            ]
            let sessions = starts.enumerated().map { index, start in
                usageSession("s\(index)", "youtube", from: start, minutes: 5)
            }
            try await stack.upload(sessions, as: cleo)
            let ordered = sessions.sorted { $0.startTime! < $1.startTime! }
            for size in [1, 2, 3] {
                var restored: [Kindred_Gamification_V1_UsageSession] = []
                var token = ""
                repeat {
                    let page = try await stack.gamification.listUsageSessions(
                        .init(page: .init(pageSize: Int32(size), pageToken: token)), options: cleo.bearer)
                    #expect(page.sessions.count <= size)
                    restored += page.sessions
                    token = page.page?.nextPageToken ?? ""
                } while !token.isEmpty
                #expect(restored == ordered, "page size \(size)")
            }
            let range = try await stack.gamification.listUsageSessions(
                .init(
                    startTime: TestClock.parse("2026-06-01T10:00:00Z"),
                    endTime: TestClock.parse("2026-06-04T07:00:00Z")),
                options: cleo.bearer)
            #expect(range.sessions.map(\.clientSessionID) == ["s2", "s0", "s3", "s6"])
        }
    }

    /// The rows `pg_dump` copies into `table`, or nil when the dump has no such table.
    static func copy(of table: String, in dump: String) -> String? {
        guard let start = dump.range(of: "COPY gamification.\(table) ") else { return nil }
        let rest = dump[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n\\.\n")?.lowerBound ?? rest.endIndex)])
    }
}

extension GamificationTestStack {
    /// Turns `user`'s session `id` back into the plaintext row it was before sealing began.
    func unseal(_ id: String, of user: UserID) async throws {
        let stored = try await pool.query(
            """
            SELECT client_session_id, app_id, started_at, ended_at, updated_at, session_sealed
            FROM gamification.usage_sessions WHERE user_id = \(user)::uuid AND client_session_id = \(id)
            """)
        let session = try GamificationTestServer.usageSessions.open(
            try UsageStore.storedSession(stored[0]), of: user)
        try await pool.query(
            """
            UPDATE gamification.usage_sessions
            SET app_id = \(session.appID), started_at = \(session.start), ended_at = \(session.end),
                updated_at = \(session.updatedAt), session_sealed = NULL
            WHERE user_id = \(user)::uuid AND client_session_id = \(id)
            """)
    }
}
