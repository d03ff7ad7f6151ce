import Foundation
import KindredHandlers
import KindredTestSupport
import Testing

/// Version 7 ids carry the millisecond of their instant, so ids made a millisecond apart sort in that order.
@Suite struct UUIDv7Tests {
    /// The Unix millisecond in the id's first 48 bits.
    static func millisecond(of id: String) -> UInt64? {
        UInt64(id.replacingOccurrences(of: "-", with: "").prefix(12), radix: 16)
    }

    /// Regression: an instant on a millisecond's edge, read through `WallClock` (whole microseconds), is a
    /// Double a hair below the edge; its id carried the millisecond before, so a test clock stepping 1 ms from
    /// a whole second made ids that shared a millisecond and came back in either order.
    @Test(arguments: [TestClock.farFromToday, "2046-11-25T10:00:00Z", "2028-02-29T23:59:59Z"])
    func idsOfInstantsAMillisecondApartCarryConsecutiveMilliseconds(start: String) throws {
        let clock = TestClock(start)
        let wall = WallClock { clock.now }
        let first = try #require(Self.millisecond(of: UUIDv7.generate(at: wall.now)))
        #expect(first == UInt64(TestClock.parse(start).timeIntervalSince1970) * 1_000)
        for step in 1...1_000 {
            clock.advance(seconds: 0.001)
            #expect(Self.millisecond(of: UUIDv7.generate(at: wall.now)) == first + UInt64(step))
        }
    }

    @Test func anInstantInsideAMillisecondCarriesThatMillisecond() {
        let instant = Date(timeIntervalSince1970: 1_795_305_599.123_456)
        #expect(Self.millisecond(of: UUIDv7.generate(at: instant)) == 1_795_305_599_123)
    }
}
