import Foundation
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

/// The same minutes are not counted twice: sessions of one app on one device that overlap, in one upload or
/// in several, count their overlap once; the same app on two devices still adds up.
@Suite struct UsageOverlapTests {
    /// `session` recorded on `device`.
    static func on(_ device: String, _ session: Kindred_Gamification_V1_UsageSession)
        -> Kindred_Gamification_V1_UsageSession
    {
        var session = session
        session.deviceID = device
        return session
    }

    @Test func twoUploadsWhoseSessionsOverlapCountTheOverlapOnce() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            try await stack.upload(
                [usageSession("s1", "youtube", from: "2026-05-01T10:00:00Z", minutes: 30)], as: anna)
            try await stack.upload(
                [usageSession("s2", "youtube", from: "2026-05-01T10:15:00Z", minutes: 30)], as: anna)
            // 30 + 30 minutes over 45 minutes of wall-clock time.
            #expect(try await stack.dailySeconds(of: anna, app: "youtube") == ["2026-05-01": 45 * 60])
            // A third inside both adds nothing.
            try await stack.upload(
                [usageSession("s3", "youtube", from: "2026-05-01T10:05:00Z", minutes: 20)], as: anna)
            #expect(try await stack.dailySeconds(of: anna, app: "youtube") == ["2026-05-01": 45 * 60])
        }
    }

    @Test func theSameAppOnTwoDevicesAddsUpInOneUploadOrTwo() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            try await stack.upload(
                [
                    Self.on(
                        "phone", usageSession("p1", "youtube", from: "2026-05-01T10:00:00Z", minutes: 30)),
                    Self.on(
                        "tablet", usageSession("t1", "youtube", from: "2026-05-01T10:15:00Z", minutes: 30)),
                ], as: anna)
            try await stack.upload(
                [usageSession("u1", "youtube", from: "2026-05-01T10:00:00Z", minutes: 10)], as: anna)
            #expect(try await stack.dailySeconds(of: anna, app: "youtube") == ["2026-05-01": 70 * 60])
            let listed = try await stack.gamification.listUsageSessions(
                .init(
                    startTime: .init(TestClock.parse("2026-05-01T00:00:00Z")),
                    endTime: .init(TestClock.parse("2026-05-02T00:00:00Z"))),
                options: anna.bearer)
            #expect(Set(listed.sessions.map(\.deviceID)) == ["phone", "tablet", ""])
        }
    }

    @Test func aNewerVersionTakesBackOnlyTimeNothingElseCovers() async throws {
        try await GamificationTestStack.with { stack in
            let anna = try await stack.register("anna")
            let (first, second) = ("2026-05-01T10:00:00Z", "2026-05-01T10:15:00Z")
            try await stack.upload(
                [usageSession("s1", "youtube", from: first, minutes: 30, updated: "2026-05-01T11:00:00Z")],
                as: anna)
            try await stack.upload(
                [usageSession("s2", "youtube", from: second, minutes: 30, updated: "2026-05-01T11:00:00Z")],
                as: anna)
            // s2 moves to noon: 10:00-10:30 and 12:00-12:30.
            try await stack.upload(
                [
                    usageSession(
                        "s2", "youtube", from: "2026-05-01T12:00:00Z", minutes: 30,
                        updated: "2026-05-01T13:00:00Z")
                ], as: anna)
            #expect(try await stack.dailySeconds(of: anna, app: "youtube") == ["2026-05-01": 60 * 60])
            // s1 shrinks to its first 10 minutes; s2 becomes another app.
            try await stack.upload(
                [
                    usageSession("s1", "youtube", from: first, minutes: 10, updated: "2026-05-01T14:00:00Z"),
                    usageSession(
                        "s2", "tiktok", from: "2026-05-01T10:05:00Z", minutes: 30,
                        updated: "2026-05-01T14:00:00Z"),
                ], as: anna)
            #expect(try await stack.dailySeconds(of: anna, app: "youtube") == ["2026-05-01": 10 * 60])
            #expect(try await stack.dailySeconds(of: anna, app: "tiktok") == ["2026-05-01": 30 * 60])
        }
    }

    @Test func aBatchRefusesOverlapsOnOneDeviceOnly() throws {
        let now = TestClock.parse("2026-05-02T00:00:00Z")
        let phone = usageSession("a", "youtube", from: "2026-05-01T10:00:00Z", minutes: 30)
        let tablet = Self.on(
            "tablet", usageSession("b", "youtube", from: "2026-05-01T10:15:00Z", minutes: 30))
        #expect(try UsageBatch(.init(sessions: [phone, tablet]), now: now).sessions.count == 2)
        let samePhone = usageSession("c", "youtube", from: "2026-05-01T10:15:00Z", minutes: 30)
        let error = try #require(throws: RPCError.self) {
            try UsageBatch(.init(sessions: [phone, samePhone]), now: now)
        }
        #expect(error.badFields == ["sessions[1].start_time"])
    }

    @Test func coverageMergesOverlapsAndSubtractsExactly() {
        let t = { (minute: Double) in Date(timeIntervalSince1970: minute * 60) }
        let was = UsageCoverage([t(0)..<t(30), t(15)..<t(45), t(60)..<t(70)])
        #expect(was.intervals == [t(0)..<t(45), t(60)..<t(70)])
        let now = UsageCoverage([t(10)..<t(20), t(40)..<t(65)])
        #expect(was.subtracting(now) == [t(0)..<t(10), t(20)..<t(40), t(65)..<t(70)])
        #expect(now.subtracting(was) == [t(45)..<t(60)])
    }

    /// Spans in any order (an ordered run then a few more, as the tally passes them, or shuffled) merge into the
    /// same intervals as sorting them all first did.
    @Test func coverageOfSpansInAnyOrderIsTheirSortedUnion() {
        let t = { (minute: UInt64) in Date(timeIntervalSince1970: Double(minute) * 60) }
        var random = SeededRandom(seed: 11)
        for round in 0..<300 {
            let count = Int(random.next() % 40)
            var spans = (0..<count).map { _ in
                let start = random.next() % 200
                return t(start)..<t(start + random.next() % 15)
            }
            if round % 2 == 0 {
                let run = Int(random.next() % UInt64(count + 1))
                spans[..<run].sort { $0.lowerBound < $1.lowerBound }
            }
            var union: [Range<Date>] = []
            for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) where !span.isEmpty {
                if let last = union.last, span.lowerBound <= last.upperBound {
                    union[union.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
                } else {
                    union.append(span)
                }
            }
            #expect(UsageCoverage(spans).intervals == union, "round \(round)")
        }
    }
}
