import Testing

@testable import KindredMessages

/// `validateWire` refuses what decoding refuses, for the same reason, and accepts what decoding accepts,
/// without building the value.
@Suite struct WireCheckTests {
    typealias Request = Grpc_Health_V1_HealthCheckRequest

    func reason(_ bytes: [UInt8], maxSize: Int = 4 << 20) -> MessageDecodingError.Reason? {
        let checked = bytes.withUnsafeBytes { buffer in
            Result { () throws(MessageDecodingError) in try Request.validateWire(buffer, maxSize: maxSize) }
        }
        guard case .failure(let error) = checked else { return nil }
        #expect(error.messageName == "grpc.health.v1.HealthCheckRequest")
        return error.reason
    }

    @Test(arguments: [
        "0a03616263", "", "0a00", "10ff01",  // well formed, empty, an empty string, an unknown field
        "08", "0a05616263", "0a", "0f01", "0b0c", "0001", "08ffffffffffffffffffff01", "fa",  // malformed
        "0801",  // the string field sent as a varint: refused by protobuf-c's unpacking
        "0a02c328", "0a01ff", "0a03610062",  // invalid UTF-8, a NUL
    ])
    func refusesWhatDecodingRefusesForTheSameReason(fixture: String) {
        let decoded: MessageDecodingError.Reason?
        do {
            _ = try Request(serializedBytes: hex(fixture))
            decoded = nil
        } catch {
            decoded = error.reason
        }
        #expect(reason(hex(fixture)) == decoded)
    }

    @Test func inputOverTheSizeLimitIsRefusedAndAtTheLimitAccepted() {
        #expect(reason(hex("0a03616263"), maxSize: 4) == .tooLarge(size: 5, limit: 4))
        #expect(reason(hex("0a03616263"), maxSize: 5) == nil)
    }
}
