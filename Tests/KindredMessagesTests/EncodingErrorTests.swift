import KindredMessages
import Testing

@Suite struct EncodingErrorTests {
    @Test func aNULInAStringIsRefusedWithTheFieldPath() {
        #expect(throws: MessageEncodingError(fieldPath: "service")) {
            try Grpc_Health_V1_HealthCheckRequest(service: "a\u{0}b").serializedBytes()
        }
    }

    @Test func nestedRepeatedAndMapFieldsNameTheirPath() {
        #expect(throws: MessageEncodingError(fieldPath: "response_status.message")) {
            try Grpc_Testing_SimpleRequest(responseStatus: .init(message: "\u{0}")).serializedBytes()
        }
        #expect(throws: MessageEncodingError(fieldPath: "field_violations.description")) {
            try Google_Rpc_BadRequest(fieldViolations: [.init(field: "a"), .init(description: "x\u{0}")])
                .serializedBytes()
        }
        #expect(throws: MessageEncodingError(fieldPath: "metadata")) {
            try Google_Rpc_ErrorInfo(metadata: ["k\u{0}": "v"]).serializedBytes()
        }
        #expect(throws: MessageEncodingError(fieldPath: "stack_entries")) {
            try Google_Rpc_DebugInfo(stackEntries: ["ok", "\u{0}"]).serializedBytes()
        }
    }
}
