import KindredAuth
import Testing
@testable import KindredRPC

@Suite struct WireFormatTests {
    @Test(arguments: [
        ("1H", Duration.seconds(3600)), ("2M", .seconds(120)), ("3S", .seconds(3)),
        ("150m", .milliseconds(150)),
        ("7u", .microseconds(7)), ("99999999n", .nanoseconds(99_999_999)),
    ])
    func timeoutUnitsParse(value: String, expected: Duration) {
        #expect(GRPCTimeout.parse(value) == expected)
    }

    @Test(arguments: ["", "S", "10", "123456789S", "1x", "-1S", "1.5S", " 1S"])
    func malformedTimeoutsAreRejected(value: String) {
        #expect(GRPCTimeout.parse(value) == nil)
    }

    @Test(arguments: [
        ("plain message", "plain message"), ("100%", "100%25"), ("é", "%C3%A9"),
        ("line\nbreak", "line%0Abreak"),
    ])
    func statusMessagesArePercentEncoded(message: String, encoded: String) {
        #expect(PercentEncoding.encode(message) == encoded)
        #expect(PercentEncoding.decode(encoded) == message)
    }

    @Test func malformedPercentEscapesAreKeptLiterally() {
        #expect(PercentEncoding.decode("50%zz%") == "50%zz%")
    }

    @Test(arguments: [[UInt8](), [0], [0, 1], [0, 1, 2], [0xFF, 0xFE, 0xFD, 0xFC]])
    func base64RoundTripsWithoutPadding(bytes: [UInt8]) {
        let encoded = Base64.encode(bytes)
        #expect(!encoded.contains("="))
        #expect(Base64.decode(encoded) == bytes)
    }

    @Test func base64AcceptsPaddingAndRejectsGarbage() {
        #expect(Base64.decode("AAEC/w==") == [0, 1, 2, 255])
        #expect(Base64.decode("A") == nil)
        #expect(Base64.decode("AA*A") == nil)
    }

    @Test func gzipRoundTripsAndHonoursTheLimit() throws {
        let payload = [UInt8](repeating: 42, count: 10_000)
        let compressed = MessageEncoding.gzip(payload)
        #expect(compressed.count < 200)
        #expect(try MessageEncoding.gunzip(compressed, limit: 10_000) == payload)
        #expect(throws: MessageEncoding.DecompressionError.self) {
            try MessageEncoding.gunzip(compressed, limit: 9_999)
        }
        #expect(throws: MessageEncoding.DecompressionError.self) {
            try MessageEncoding.gunzip([1, 2, 3], limit: 100)
        }
    }

    @Test func acceptEncodingListsAreMatchedByName() {
        #expect(MessageEncoding.gzip.isListed(in: "identity, gzip"))
        #expect(!MessageEncoding.gzip.isListed(in: "identity,deflate"))
    }
}
