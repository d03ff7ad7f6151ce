import Testing
@testable import KindredRPC

@Suite struct MetadataTests {
    @Test func keysAreLowercasedAndOrderIsKept() {
        var metadata = Metadata()
        metadata.add("X-B", "2")
        metadata.add("x-a", "1")
        metadata.add("x-b", "3")
        #expect(metadata.map(\.key) == ["x-b", "x-a", "x-b"])
        #expect(metadata["X-B"] == "2")
        #expect(metadata.values(forKey: "x-b") == [.text("2"), .text("3")])
    }

    @Test func binaryKeysCarryBytesAndGainTheSuffix() {
        var metadata = Metadata()
        metadata.add("trace", binary: [1, 2])
        #expect(metadata[binary: "trace-bin"] == [1, 2])
        #expect(sent(metadata).first! == ("trace-bin", "AQI"))
    }

    @Test(arguments: [":path", "content-type", "te", "grpc-timeout", "grpc-status", "connection"])
    func reservedHeadersNeverBecomeMetadata(name: String) {
        let value: [UInt8] = Array("x".utf8)
        #expect(value.withUnsafeBufferPointer { Metadata.entry(name: name, value: $0) } == nil)
    }

    @Test func receivedBinaryValuesAreBase64Decoded() {
        let value = Array("AAEC/w==".utf8)
        let entry = value.withUnsafeBufferPointer { Metadata.entry(name: "x-data-bin", value: $0) }
        #expect(entry?.value == .binary([0, 1, 2, 255]))
    }

    @Test func invalidKeysAndValuesAreNotSent() {
        var metadata = Metadata()
        metadata.add("Bad Key", "x")
        metadata.add("grpc-status", "0")
        metadata.add("x-ok", "fine")
        metadata.add("x-newline", "a\nb")
        #expect(sent(metadata).map(\.name) == ["x-ok"])
    }

    /// The header fields `metadata` sends.
    private func sent(_ metadata: Metadata) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        metadata.appendHeaderFields(to: &fields)
        return fields
    }
}
