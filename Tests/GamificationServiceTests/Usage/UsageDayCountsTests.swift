import Foundation
@testable import GamificationService
import KindredTestSupport
import Testing

/// `UsageDayCounts.add` splits a track's segments in one pass; each case gives the same segments as the
/// algorithm it replaced (`reference`: every boundary of the track collected, sorted, and each piece between
/// two recounted), which the cases keep as the oracle.
@Suite struct UsageDayCountsTests {
    /// A starting track, a session (hours of the day) and its delta, and the segments expected after.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let segments: [(Double, Double, Int64)]
        let session: (Double, Double)
        let delta: Int64
        let expected: [(Double, Double, Int64)]

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "onto an empty track", segments: [], session: (2, 3), delta: 1, expected: [(2, 3, 1)]),
        Case(
            name: "before every segment", segments: [(4, 5, 1), (6, 7, 2)], session: (1, 2), delta: 1,
            expected: [(1, 2, 1), (4, 5, 1), (6, 7, 2)]),
        Case(
            name: "after every segment", segments: [(4, 5, 1), (6, 7, 2)], session: (8, 9), delta: 1,
            expected: [(4, 5, 1), (6, 7, 2), (8, 9, 1)]),
        Case(
            name: "inside one segment", segments: [(4, 8, 2)], session: (5, 6), delta: 1,
            expected: [(4, 5, 2), (5, 6, 3), (6, 8, 2)]),
        Case(
            name: "across several segments and the gaps between",
            segments: [(1, 2, 1), (3, 4, 2), (5, 6, 1)],
            session: (1.5, 5.5), delta: 1,
            expected: [(1, 1.5, 1), (1.5, 2, 2), (2, 3, 1), (3, 4, 3), (4, 5, 1), (5, 5.5, 2), (5.5, 6, 1)]),
        Case(
            name: "touching a segment's end merges with it", segments: [(1, 2, 1)], session: (2, 3), delta: 1,
            expected: [(1, 3, 1)]),
        Case(
            name: "touching a segment's start merges with it", segments: [(2, 3, 1)], session: (1, 2),
            delta: 1,
            expected: [(1, 3, 1)]),
        Case(
            name: "touching a segment of another count stays apart", segments: [(2, 3, 2)], session: (1, 2),
            delta: 1, expected: [(1, 2, 1), (2, 3, 2)]),
        Case(
            name: "exactly one segment", segments: [(1, 2, 1), (2, 3, 2), (3, 4, 1)], session: (2, 3),
            delta: 1,
            expected: [(1, 2, 1), (2, 3, 3), (3, 4, 1)]),
        Case(
            name: "filling a gap merges three into one", segments: [(1, 2, 1), (3, 4, 1)], session: (2, 3),
            delta: 1, expected: [(1, 4, 1)]),
        Case(
            name: "taking back a whole segment", segments: [(1, 2, 1), (3, 4, 1)], session: (1, 2), delta: -1,
            expected: [(3, 4, 1)]),
        Case(
            name: "taking back where another session still covers",
            segments: [(1, 2, 1), (2, 3, 2), (3, 4, 1)],
            session: (1, 3), delta: -1, expected: [(2, 4, 1)]),
        Case(
            name: "taking back the middle splits a segment", segments: [(1, 5, 1)], session: (2, 3),
            delta: -1,
            expected: [(1, 2, 1), (3, 5, 1)]),
        Case(
            name: "taking back time never held takes nothing", segments: [(2, 3, 1)], session: (0, 5),
            delta: -1,
            expected: []),
        Case(
            name: "counts equalised by a take-back merge", segments: [(1, 2, 1), (2, 3, 2), (3, 4, 1)],
            session: (2, 3), delta: -1, expected: [(1, 4, 1)]),
        Case(
            name: "clipped to the day at both midnights", segments: [(23, 24, 1)], session: (-2, 26),
            delta: 1,
            expected: [(0, 23, 1), (23, 24, 2)]),
        Case(
            name: "a session outside the day changes nothing", segments: [(1, 2, 1)], session: (24, 25),
            delta: 1,
            expected: [(1, 2, 1)]),
    ]

    @Test(arguments: cases) func addSplitsOnlyAtTheSessionsEndsAsTheReplacedAlgorithmDid(_ test: Case) {
        let track = UsageTrack(deviceID: "", appID: "chess")
        let other = UsageTrack(deviceID: "tablet", appID: "chess")
        let start: [(Double, Double, Int64)] = [(1, 9, 3)]
        var counts = UsageDayCounts(
            day: Self.day, tracks: [track: Self.segments(test.segments), other: Self.segments(start)])
        let expected = Self.reference(counts.tracks[track] ?? [], test.session, test.delta)
        counts.add(Self.session(test.session), test.delta)
        #expect(counts.tracks[track] ?? [] == expected)
        #expect(expected == Self.segments(test.expected))
        // Another track of the same app is left alone.
        #expect(counts.tracks[other] == Self.segments(start))
    }

    /// A long run of random sessions, added and taken back, on one track: the same segments after each as the
    /// replaced algorithm's.
    @Test func aLongRunMatchesTheReplacedAlgorithmAfterEveryStep() {
        let track = UsageTrack(deviceID: "", appID: "chess")
        var counts = UsageDayCounts(day: Self.day)
        var expected: [UsageDayCounts.Segment] = []
        var random = SeededRandom(seed: 27)
        var added: [(Double, Double)] = []
        for step in 0..<2_000 {
            let takeBack = step % 3 == 2 && !added.isEmpty
            let span =
                takeBack
                ? added.remove(at: Int(random.next() % UInt64(added.count)))
                : { () -> (Double, Double) in
                    let from = Double(random.next() % 100) / 4 - 1
                    return (from, from + Double(random.next() % 12 + 1) / 4)
                }()
            if !takeBack { added.append(span) }
            let delta: Int64 = takeBack ? -1 : 1
            expected = Self.reference(expected, span, delta)
            counts.add(Self.session(span), delta)
            // The first step that differs is the one to read; the rest would only repeat it.
            guard counts.tracks[track] ?? [] == expected else {
                Issue.record("step \(step): \(counts.tracks[track] ?? []) != \(expected)")
                return
            }
        }
        #expect(!expected.isEmpty)
    }

    static let day = TestClock.parse("2026-05-01T00:00:00Z")

    static func at(_ hour: Double) -> Int64 {
        UsageSessions.microseconds(day) + Int64(hour * 3_600_000_000)
    }

    static func segments(_ hours: [(Double, Double, Int64)]) -> [UsageDayCounts.Segment] {
        hours.map { UsageDayCounts.Segment(start: at($0.0), end: at($0.1), count: $0.2) }
    }

    static func session(_ hours: (Double, Double)) -> UsageBatch.Session {
        let end = UsageSessions.instant(at(hours.1))
        return UsageBatch.Session(
            clientSessionID: "s", appID: "chess", start: UsageSessions.instant(at(hours.0)), end: end,
            updatedAt: end)
    }

    /// The algorithm `add` replaced, kept as the oracle: every boundary of the track and the session, sorted,
    /// each piece between two counted again.
    static func reference(_ segments: [UsageDayCounts.Segment], _ hours: (Double, Double), _ delta: Int64)
        -> [UsageDayCounts.Segment]
    {
        let from = max(at(hours.0), at(0))
        let to = min(at(hours.1), at(24))
        guard from < to else { return segments }
        let points = Set([from, to] + segments.flatMap { [$0.start, $0.end] }).sorted()
        var result: [UsageDayCounts.Segment] = []
        var next = segments.startIndex
        for (low, high) in zip(points, points.dropFirst()) {
            while next < segments.endIndex, segments[next].end <= low { next += 1 }
            var count = next < segments.endIndex && segments[next].start <= low ? segments[next].count : 0
            if from <= low && high <= to { count = max(0, count + delta) }
            guard count > 0 else { continue }
            if let last = result.last, last.end == low, last.count == count {
                result[result.count - 1].end = high
            } else {
                result.append(UsageDayCounts.Segment(start: low, end: high, count: count))
            }
        }
        return result
    }
}
