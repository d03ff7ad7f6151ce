import KindredMessages
import Testing

@Suite struct RoundTripTests {
    @Test func healthResponseSurvivesARoundTrip() throws {
        let response = Grpc_Health_V1_HealthCheckResponse(status: .serving)
        let bytes = try response.serializedBytes()
        #expect(bytes == [0x08, 0x01])
        #expect(try Grpc_Health_V1_HealthCheckResponse(serializedBytes: bytes) == response)
    }

    @Test func errorInfoWithMetadataSurvivesARoundTrip() throws {
        let info = Google_Rpc_ErrorInfo(reason: "R", domain: "kindred", metadata: ["a": "1", "b": "ü"])
        let decoded = try Google_Rpc_ErrorInfo(serializedBytes: try info.serializedBytes())
        #expect(decoded == info)
    }

    @Test func reflectionOneofSurvivesARoundTrip() throws {
        let request = Grpc_Reflection_V1_ServerReflectionRequest(host: "h", messageRequest: .listServices(""))
        let decoded = try Grpc_Reflection_V1_ServerReflectionRequest(serializedBytes: try request.serializedBytes())
        #expect(decoded == request)
    }
}
