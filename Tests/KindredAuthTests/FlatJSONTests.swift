@testable import KindredAuth
import Testing

@Suite struct FlatJSONTests {
    @Test func membersOfEveryKindAreRead() {
        let object = FlatJSONReader.object(
            from: Array(#" { "s" : "a\tb\u0041" , "i":-12, "t":true,"f":false,"n":null } "#.utf8))
        #expect(
            object == [
                "s": .string("a\tbA"), "i": .integer(-12), "t": .bool(true), "f": .bool(false), "n": .null,
            ])
        #expect(FlatJSONReader.object(from: Array("{}".utf8)) == [:])
    }

    @Test(arguments: [
        "", "[]", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{,}", "{\"a\":1}{}", "{\"a\":[1]}", "{\"a\":{}}",
        "{\"a\":tru}", "{\"a\":nul}", "{\"a\":-}", "{\"a\":1.0}", "{\"a\":1e3}", "{\"a\":00}", "{\"a\":+1}",
        "{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}", "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\"}", "{\"a\":\"x}",
        "{a:1}", "{'a':1}", "{\"a\":1,\"a\":2}", "{\"a\":9223372036854775808}",
    ])
    func anythingButOneFlatObjectIsRefused(text: String) {
        #expect(FlatJSONReader.object(from: Array(text.utf8)) == nil)
    }

    @Test func invalidUTF8IsRefused() {
        #expect(
            FlatJSONReader.object(from: [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D]) == nil)
    }

    @Test func whatTheWriterWritesTheReaderReadsBack() {
        var writer = FlatJSONWriter()
        let text = "quote\" backslash\\ newline\n bell\u{07} é 😀"
        writer.append("s", .string(text))
        writer.append("i", .integer(Int64.max))
        writer.append("b", .bool(false))
        writer.append("n", .null)
        let bytes = writer.finish()
        #expect(
            String(decoding: bytes, as: UTF8.self).hasPrefix(
                #"{"s":"quote\" backslash\\ newline\n bell\u0007 "#))
        #expect(
            FlatJSONReader.object(from: bytes) == [
                "s": .string(text), "i": .integer(Int64.max), "b": .bool(false), "n": .null,
            ])
    }
}
