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

    /// Ids of one instant share their first 48 bits and differ in the 74 random ones, each of which is drawn
    /// (a bit that stayed 0 or 1 in 2,000 ids was not), under the version (7) and the variant (0b10).
    @Test func idsOfOneInstantDifferInEveryRandomBitUnderTheVersionAndVariant() {
        let instant = Date(timeIntervalSince1970: 1_795_305_599.123_456)
        let ids = (0..<2_000).map { _ in UUIDv7.generateUUID(at: instant) }
        #expect(Set(ids).count == ids.count)
        var everSet = [UInt8](repeating: 0, count: 16)
        var everClear = [UInt8](repeating: 0, count: 16)
        for id in ids {
            withUnsafeBytes(of: id.uuid) { bytes in
                #expect(bytes[6] >> 4 == 7)
                #expect(bytes[8] >> 6 == 0b10)
                for index in 0..<16 {
                    everSet[index] |= bytes[index]
                    everClear[index] |= ~bytes[index]
                }
            }
        }
        // The bits drawn: all but the 48 of the millisecond, the version's 4 and the variant's 2.
        let drawn: [UInt8] = [0, 0, 0, 0, 0, 0, 0x0F, 0xFF, 0x3F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        for index in 0..<16 {
            #expect(everSet[index] & drawn[index] == drawn[index], "bits of byte \(index) never set")
            #expect(everClear[index] & drawn[index] == drawn[index], "bits of byte \(index) never cleared")
        }
    }

    @Test func anInstantInsideAMillisecondCarriesThatMillisecond() {
        let instant = Date(timeIntervalSince1970: 1_795_305_599.123_456)
        #expect(Self.millisecond(of: UUIDv7.generate(at: instant)) == 1_795_305_599_123)
    }
}
