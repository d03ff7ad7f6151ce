@testable import KindredAuth
import Testing

@Suite struct Base64URLTests {
    // RFC 4648 §10 vectors, in the URL-safe alphabet without padding.
    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
    ])
    func theStandardVectorsEncodeAndDecode(plain: String, encoded: String) {
        #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
        #expect(Base64URL.decode(Array(encoded.utf8)) == Array(plain.utf8))
    }

    @Test func everyByteValueRoundTripsThroughTheURLSafeAlphabet() {
        let bytes = (0...255).map(UInt8.init)
        let encoded = Base64URL.encode(bytes)
        #expect(!encoded.contains("+") && !encoded.contains("/") && !encoded.contains("="))
        #expect(Base64URL.decode(Array(encoded.utf8)) == bytes)
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
    }

    @Test(arguments: ["Zg==", "Zm9v+", "Zm9v/w", "Zm 9v", "Z", "Zm9vY", "Zh", "Zm9", "Zm+v", "é"])
    func nonCanonicalOrForeignTextIsRefused(text: String) {
        // "Zh" and "Zm9" decode to the same bytes as "Zg" and "Zm8" but with spare bits set.
        #expect(Base64URL.decode(Array(text.utf8)) == nil)
    }
}
