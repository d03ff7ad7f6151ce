import Logging
import Testing

@testable import KindredRuntime

@Suite struct JSONLogHandlerTests {
    @Test(arguments: [
        ("plain", "\"plain\""), ("say \"hi\"", "\"say \\\"hi\\\"\""), ("a\\b", "\"a\\\\b\""),
        ("line\nbreak\ttab", "\"line\\nbreak\\ttab\""), ("\u{01}", "\"\\u0001\""), ("café 👶", "\"café 👶\""),
    ])
    func quotesJSONStrings(text: String, json: String) {
        #expect(JSONText.quoted(text) == json)
    }

    @Test func nestedMetadataIsJSONWithSortedKeys() {
        let value: Logger.Metadata.Value = .dictionary(["b": "2", "a": .array(["x", "y"])])
        #expect(JSONText.value(value) == #"{"a":["x","y"],"b":"2"}"#)
    }

    @Test(arguments: [
        (0, 0, "1970-01-01T00:00:00.000Z"), (951_782_400, 7, "2000-02-29T00:00:00.007Z"),
        (1_795_305_599, 999, "2026-11-21T23:59:59.999Z"),
    ])
    func timestampsAreRFC3339InUTC(seconds: Int, milliseconds: Int, text: String) {
        #expect(UTCTimestamp.format(seconds: seconds, milliseconds: milliseconds) == text)
    }
}
