import FoundationEssentials
import KindredMessages
import Testing

/// Timestamps become `Date`s when decoded and timestamps again when encoded: exact to the microsecond near
/// today, and never a trap for whatever int64 seconds a client put on the wire.
@Suite struct TimestampDateTests {
    @Test func aTimeNearTodayKeepsItsMicroseconds() {
        let timestamp = Google_Protobuf_Timestamp(Date(timeIntervalSince1970: 1_700_000_000.123_456))
        #expect(timestamp.seconds == 1_700_000_000)
        #expect(timestamp.nanos == 123_456_000)
        #expect(Google_Protobuf_Timestamp(Date(timeIntervalSince1970: -0.5)).seconds == -1)
        #expect(Google_Protobuf_Timestamp(Date(timeIntervalSince1970: -0.5)).nanos == 500_000_000)
    }

    @Test(
        arguments: [
            // seconds, nanos as a client sent them
            (Int64.max, 999_999_999),
            (Int64.min, 0),
            (100_000_000_000_000, 5),  // 3 million years: past an Int64 of microseconds
            (-9_300_000_000_000, 250_000_000),
            (9_223_372_036_854, 775_807_000),  // the last whole microsecond an Int64 holds
        ] as [(Int64, Int32)])
    func aTimeFarFrom1970EncodesAndReEncodesTheSameWithoutTrapping(seconds: Int64, nanos: Int32) throws {
        let sent = Kindred_Gamification_V1_ListUsageSessionsRequest(
            startTime: Google_Protobuf_Timestamp(seconds: seconds, nanos: nanos).date)
        let encoded = try sent.serializedBytes()
        let decoded = try Kindred_Gamification_V1_ListUsageSessionsRequest(serializedBytes: encoded)
        #expect(try decoded.serializedBytes() == encoded)
    }

    /// The bounded fuzz stage's finding (Tests/Fuzz/corpus/messages keeps it as a seed): start_time with
    /// seconds near 2^62, which decoded to a `Date` whose microseconds overflowed an Int64 when encoded.
    @Test func theFuzzersTimestampEncodes() throws {
        let bytes: [UInt8] = [0x0A, 0x08, 0x08, 0xCC, 0xAD, 0xB4, 0xAD, 0xAD, 0xAD, 0x60]
        let request = try Kindred_Gamification_V1_ListUsageSessionsRequest(serializedBytes: bytes)
        let encoded = try request.serializedBytes()
        let decoded = try Kindred_Gamification_V1_ListUsageSessionsRequest(serializedBytes: encoded)
        #expect(try decoded.serializedBytes() == encoded)
    }
}
