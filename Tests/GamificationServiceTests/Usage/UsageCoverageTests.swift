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

/// What an upload reads instead of the sessions around it (`UsageDayCounts`, one sealed row per user and UTC
/// day) keeps the totals exact: overlaps across batches and across UTC midnight, a replaced session moving its
/// time, retries, concurrent batches, days stored before the counts existed, and a key rotation.
@Suite struct UsageCoverageTests {
    @Test func sessionsOverlappingAcrossUTCMidnightInTwoBatchesCountTheOverlapOnceAndMoveTogether()
        async throws
    {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            try await stack.upload(
                [usageSession("late", "youtube", from: "2026-05-01T23:30:00Z", minutes: 60)], as: anna)
            try await stack.upload(
                [usageSession("early", "youtube", from: "2026-05-02T00:15:00Z", minutes: 30)], as: anna)
            #expect(
                try await stack.dailySeconds(of: anna, app: "youtube") == [
                    "2026-05-01": 30 * 60, "2026-05-02": 45 * 60,
                ])
            // "late" moves to the evening: the night keeps only what "early" covers.
            try await stack.upload(
                [
                    usageSession(
                        "late", "youtube", from: "2026-05-01T22:00:00Z", minutes: 30,
                        updated: "2026-05-02T08:00:00Z")
                ], as: anna)
            #expect(
                try await stack.dailySeconds(of: anna, app: "youtube") == [
                    "2026-05-01": 30 * 60, "2026-05-02": 30 * 60,
                ])
        }
    }

    @Test func aRetriedBatchChangesNeitherTheTotalsNorTheCounts() async throws {
        try await GamificationTestStack.with { stack in
            let ben = try await stack.register("ben")
            let batch = [
                usageSession("a", "chess", from: "2026-05-01T10:00:00Z", minutes: 30),
                UsageOverlapTests.on(
                    "tablet", usageSession("b", "chess", from: "2026-05-01T10:20:00Z", minutes: 30)),
                usageSession("c", "chess", from: "2026-05-01T10:40:00Z", minutes: 30),
            ]
            #expect(try await stack.upload(batch, as: ben).stored == 3)
            let counts = try await Self.coverage(of: ben, stack)
            let retried = try await stack.upload(batch, as: ben)
            #expect(retried.stored == 0 && retried.unchanged == 3)
            #expect(try await Self.coverage(of: ben, stack) == counts)
            // Two half hours on the phone, one on the tablet.
            #expect(try await stack.dailySeconds(of: ben, app: "chess") == ["2026-05-01": 90 * 60])
        }
    }

    @Test func concurrentBatchesOfOneUserCountTheirOverlapsOnce() async throws {
        try await GamificationTestStack.with { stack in
            let cleo = try await stack.register("cleo")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        let start = "2026-05-01T10:\(String(format: "%02d", index * 5)):00Z"
                        try await stack.upload(
                            [usageSession("s\(index)", "piano", from: start, minutes: 30)], as: cleo)
                    }
                }
                try await group.waitForAll()
            }
            // 10:00 to 11:05.
            #expect(try await stack.dailySeconds(of: cleo, app: "piano") == ["2026-05-01": 65 * 60])
        }
    }

    @Test func daysStoredBeforeTheCountsAreBuiltOnceFromTheirSessions() async throws {
        try await GamificationTestStack.with { stack in
            let dora = try await stack.register("dora")
            try await stack.upload(
                [
                    usageSession("morning", "youtube", from: "2026-05-01T10:00:00Z", minutes: 30),
                    usageSession("night", "youtube", from: "2026-05-01T23:50:00Z", minutes: 30),
                ], as: dora)
            // As migration 20 finds them: sessions, no counts.
            try await stack.pool.query(
                "DELETE FROM gamification.usage_coverage WHERE user_id = \(dora.id)::uuid")
            try await stack.pool.query(PostgresQuery(unsafeSQL: GamificationMigrations.usageCoveragePending))
            #expect(try await Self.pendingDays(of: dora, stack) == ["2026-05-01", "2026-05-02"])

            try await stack.upload(
                [
                    usageSession("later", "youtube", from: "2026-05-01T10:15:00Z", minutes: 30),
                    usageSession(
                        "night", "youtube", from: "2026-05-02T00:00:00Z", minutes: 10,
                        updated: "2026-05-02T08:00:00Z"),
                ], as: dora)
            #expect(
                try await stack.dailySeconds(of: dora, app: "youtube") == [
                    "2026-05-01": 45 * 60, "2026-05-02": 10 * 60,
                ])
            #expect(try await Self.pendingDays(of: dora, stack).isEmpty)
            #expect(try await Self.coverage(of: dora, stack).count == 2)
        }
    }

    @Test func theCountsAreSealedAndRotateDataSealsThemUnderTheCurrentKey() async throws {
        try await GamificationTestStack.with { stack in
            let emil = try await stack.register("emil")
            var session = usageSession("s1", "moodjournal", from: "2026-05-01T03:17:00Z", minutes: 25)
            session.deviceID = "kitchen-tablet"
            try await stack.upload([session], as: emil)
            // The day's total names the app (`usage_daily`); the counts name neither it nor the device.
            let dump = try await dataDump(of: "gamification", on: stack.pool)
            let coverage = try #require(UsageSessionSealingTests.copy(of: "usage_coverage", in: dump))
            #expect(coverage.contains(emil.id))
            #expect(readableMarkers(["moodjournal", "kitchen-tablet"], in: coverage).isEmpty)
            let sessionMarkers = ["kitchen-tablet", "03:17", "03:42"]
            #expect(
                readableMarkers(sessionMarkers, in: dump).isEmpty,
                "\(linesShowing(sessionMarkers, in: dump).prefix(10))")

            let user = try #require(UserID(emil.id))
            let day = TestClock.parse("2026-05-01T00:00:00Z")
            let current = GamificationTestServer.usageSessions
            let counts = try current.open(
                try #require(try await Self.coverage(of: emil, stack).first), day: day, of: user)
            let old = UsageSessions(cipher: TestDataKeys.old)
            try await stack.pool.query(
                """
                UPDATE gamification.usage_coverage SET coverage_sealed = \(old.seal(counts, of: user))::bytea
                WHERE user_id = \(user)::uuid
                """)
            let rotation = UsageCoverageRotation(database: stack.pool, sessions: current)
            #expect(try await rotation.resealAll() == 1)
            let sealed = try #require(try await Self.coverage(of: emil, stack).first)
            #expect(current.cipher.isCurrent(sealed))
            #expect(try current.open(sealed, day: day, of: user) == counts)
            #expect(try await rotation.resealAll() == 0)

            var overlapping = usageSession("s2", "moodjournal", from: "2026-05-01T03:30:00Z", minutes: 25)
            overlapping.deviceID = "kitchen-tablet"
            try await stack.upload([overlapping], as: emil)
            #expect(try await stack.dailySeconds(of: emil, app: "moodjournal") == ["2026-05-01": 38 * 60])
        }
    }

    @Test func countsStayAboveZeroWhereAnotherSessionStillCoversTheTime() throws {
        let day = TestClock.parse("2026-05-01T00:00:00Z")
        let at = { (hour: Double) in day.addingTimeInterval(hour * 3_600) }
        let session = { (id: String, from: Double, to: Double) in
            UsageBatch.Session(
                clientSessionID: id, appID: "chess", start: at(from), end: at(to), updatedAt: at(to))
        }
        let track = UsageTrack(deviceID: "", appID: "chess")
        var counts = [UsageDayCounts(day: day), UsageDayCounts(day: at(24))]
        counts.add(session("a", 1, 3), 1)
        counts.add(session("b", 2, 4), 1)
        counts.add(session("night", 23, 25), 1)
        let both = [at(0)..<at(48)]
        #expect(
            counts.covered(track, near: both) == [
                at(1)..<at(2), at(2)..<at(3), at(3)..<at(4), at(23)..<at(24), at(24)..<at(25),
            ])
        // Near a span: the segments it overlaps or touches, none further.
        #expect(
            counts.covered(track, near: [at(3)..<at(23)]) == [at(2)..<at(3), at(3)..<at(4), at(23)..<at(24)])
        #expect(counts.covered(track, near: [at(5)..<at(6), at(24.5)..<at(26)]) == [at(24)..<at(25)])
        counts.add(session("a", 1, 3), -1)
        #expect(counts.covered(track, near: both) == [at(2)..<at(4), at(23)..<at(24), at(24)..<at(25)])
        // A version the counts never held takes nothing back.
        counts.add(session("ghost", 0, 5), -1)
        #expect(counts.covered(track, near: both) == [at(23)..<at(24), at(24)..<at(25)])
        #expect(UsageDayCounts.days(of: at(23)..<at(25)) == [day, at(24)])
        #expect(UsageDayCounts.days(of: at(22)..<at(24)) == [day])

        let user = UserID(UUID())
        let sealing = GamificationTestServer.usageSessions
        #expect(try sealing.open(sealing.seal(counts[1], of: user), day: at(24), of: user) == counts[1])
        #expect(throws: FieldCipherError.self) {
            try sealing.open(sealing.seal(counts[1], of: user), day: day, of: user)
        }
    }

    /// `user`'s sealed counts, day by day.
    static func coverage(of user: TestUser, _ stack: GamificationTestStack) async throws -> [[UInt8]] {
        try await stack.pool.query(
            """
            SELECT coverage_sealed FROM gamification.usage_coverage WHERE user_id = \(user.id)::uuid
            ORDER BY utc_day
            """
        ).map { try $0.decode([UInt8].self, column: 0) }
    }

    /// The UTC days (YYYY-MM-DD) whose counts `user` has yet to build.
    static func pendingDays(of user: TestUser, _ stack: GamificationTestStack) async throws -> [String] {
        try await stack.pool.query(
            """
            SELECT utc_day::text FROM gamification.usage_coverage_pending WHERE user_id = \(user.id)::uuid
            ORDER BY utc_day
            """
        ).map { try $0.decode(String.self, column: 0) }
    }
}
