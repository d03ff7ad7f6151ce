import Foundation
@testable import GamificationService
@testable import ServiceTestSupport
import KindredHandlers
import KindredTestSupport
import Testing

/// The counts as `gamification.usage_coverage` keeps them: sealed, and opened again as they were.
extension UsageDayCountsTests {
    /// Sealed, the counts open as they were, in whichever unit divides their times; a busy day of sessions
    /// timed to the second (2,000 one-minute stretches) stays well inside a heap page.
    @Test(arguments: [1_000_000, 1_000, 1] as [Int64])
    func sealedCountsOpenAsTheyWereInTheLargestUnitThatDividesThem(_ step: Int64) throws {
        let user = UserID(UUID())
        let sealing = GamificationTestServer.usageSessions
        let stretches = (0..<2_000).map { (index: Int64) in
            let start = Self.at(0) + index * 40_000_000 + step
            return UsageDayCounts.Segment(start: start, end: start + 30_000_000, count: index % 3 + 1)
        }
        let counts = UsageDayCounts(
            day: Self.day,
            tracks: [
                UsageTrack(deviceID: "", appID: "chess"): stretches,
                UsageTrack(deviceID: "tablet", appID: "piano"): Self.segments([(1, 2, 1), (2.5, 24, 2)]),
            ])
        let sealed = sealing.seal(counts, of: user)
        #expect(try sealing.open(sealed, day: Self.day, of: user) == counts)
        if step == 1_000_000 { #expect(sealed.count < 7_000) }
        let empty = UsageDayCounts(day: Self.day)
        #expect(try sealing.open(sealing.seal(empty, of: user), day: Self.day, of: user) == empty)
    }

    /// Counts sealed before the unit was written (every number in microseconds, no leading 0) still open.
    @Test func countsSealedInMicrosecondsWithoutAUnitStillOpen() throws {
        let user = UserID(UUID())
        let sealing = GamificationTestServer.usageSessions
        var bytes: [UInt8] = []
        let put = { (value: UInt64) in
            var rest = value
            while rest >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
                rest >>= 7
            }
            bytes.append(UInt8(rest))
        }
        put(5)
        bytes += Array("chess".utf8)
        put(0)
        put(2)
        for (gap, length, count) in [(3_600_000_000, 1_800_000_123, 1), (7, 1, 2)]
            as [(UInt64, UInt64, UInt64)]
        {
            put(gap)
            put(length)
            put(count)
        }
        let context = "gamification.usage_coverage/\(user)/\(Self.at(0))"
        let counts = try sealing.open(sealing.cipher.seal(bytes, context: context), day: Self.day, of: user)
        let first = Self.at(1) + 1_800_000_123
        #expect(
            counts.tracks == [
                UsageTrack(deviceID: "", appID: "chess"): [
                    UsageDayCounts.Segment(start: Self.at(1), end: first, count: 1),
                    UsageDayCounts.Segment(start: first + 7, end: first + 8, count: 2),
                ]
            ])
    }
}
