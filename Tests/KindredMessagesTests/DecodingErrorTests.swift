@testable import KindredMessages
import Testing

@Suite struct DecodingErrorTests {
    typealias Request = Grpc_Health_V1_HealthCheckRequest

    func reason(_ bytes: [UInt8], maxSize: Int = 4 << 20) -> MessageDecodingError.Reason? {
        do {
            _ = try Request(serializedBytes: bytes, maxSize: maxSize)
            return nil
        } catch {
            #expect(error.messageName == "grpc.health.v1.HealthCheckRequest")
            return error.reason
        }
    }

    @Test func inputOverTheSizeLimitIsRefusedAndAtTheLimitAccepted() {
        let bytes = hex("0a03616263")
        #expect(reason(bytes, maxSize: 4) == .tooLarge(size: 5, limit: 4))
        #expect(reason(bytes, maxSize: 5) == nil)
    }

    @Test(arguments: [
        "08",  // a varint cut short
        "0a05616263",  // a length longer than what follows
        "0a",  // a length missing
        "0f01",  // wire type 7 does not exist
        "0b0c",  // groups are not supported
        "0001",  // field number 0
        "08ffffffffffffffffffff01",  // an 11-byte varint
        "0801",  // the string field sent as a varint
        "fa",  // a tag cut short
    ])
    func malformedOrTruncatedInputIsRefused(fixture: String) {
        #expect(reason(hex(fixture)) == .malformed)
    }

    @Test(arguments: ["0a02c328", "0a02c080", "0a03eda080", "0a01ff", "0a04f4908080"])
    func invalidUTF8IsRefused(fixture: String) {
        #expect(reason(hex(fixture)) == .invalidUTF8)
    }

    @Test func anEmbeddedNULIsRefusedInAnyStringField() throws {
        #expect(reason(hex("0a03610062")) == .embeddedNUL)
        // In a nested message (SimpleRequest.response_status.message) and in a map key (ErrorInfo.metadata).
        #expect(throws: MessageDecodingError(messageName: "grpc.testing.SimpleRequest", reason: .embeddedNUL))
        {
            try Grpc_Testing_SimpleRequest(serializedBytes: hex("3a04120261" + "00"))
        }
        #expect(throws: MessageDecodingError(messageName: "google.rpc.ErrorInfo", reason: .embeddedNUL)) {
            try Google_Rpc_ErrorInfo(serializedBytes: hex("1a050a0300" + "6162"))
        }
    }

    @Test func bytesFieldsMayHoldAnything() throws {
        let payload = try Grpc_Testing_Payload(serializedBytes: hex("120400ff80c0"))
        #expect(payload.body == [0x00, 0xFF, 0x80, 0xC0])
    }

    @Test func unknownFieldsFromNewerPeersAreSkipped() throws {
        // service = "a", then fields 99 (varint), 100 (bytes, not UTF-8), 101 (fixed32), 102 (fixed64).
        let bytes = hex("0a0161" + "98060f" + "a20602ff00" + "ad0601020304" + "b1060102030405060708")
        #expect(try Request(serializedBytes: bytes) == Request(service: "a"))
    }

    @Test func nestingDeeperThanTheLimitIsRefused() {
        // SimpleRequest.payload (depth 2) under a limit of 1.
        let bytes = hex("1a03120100")
        bytes.withUnsafeBytes { buffer in
            #expect(
                WireValidator.problem(
                    in: buffer, descriptor: Grpc_Testing_SimpleRequest.cDescriptor, depthLimit: 1)
                    == .malformed)
            #expect(
                WireValidator.problem(
                    in: buffer, descriptor: Grpc_Testing_SimpleRequest.cDescriptor, depthLimit: 2) == nil)
        }
    }
}
