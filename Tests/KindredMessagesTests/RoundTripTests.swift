import KindredMessages
import Testing

@Suite struct RoundTripTests {
    @Test(arguments: ["", "plain", "héllo ✓ 👋", "日本語", String(repeating: "x", count: 70_000)])
    func stringsSurviveARoundTrip(text: String) throws {
        let request = Grpc_Health_V1_HealthCheckRequest(service: text)
        #expect(try roundTrip(request) == request)
    }

    @Test func bytesOfEveryValueSurviveARoundTrip() throws {
        let payload = Grpc_Testing_Payload(type: .compressable, body: (0...255).map { UInt8($0) } + [0, 0])
        #expect(try roundTrip(payload) == payload)
        #expect(try roundTrip(Grpc_Testing_Payload(body: [])).body == [])
    }

    @Test(arguments: [
        Grpc_Health_V1_HealthCheckResponse.ServingStatus.unknown, .serving, .notServing, .serviceUnknown,
        .unrecognized(42), .unrecognized(-7),
    ])
    func enumValuesSurviveARoundTripIncludingUnknownOnes(
        status: Grpc_Health_V1_HealthCheckResponse.ServingStatus
    ) throws {
        let response = Grpc_Health_V1_HealthCheckResponse(status: status)
        #expect(try roundTrip(response).status == status)
    }

    @Test func repeatedFieldsKeepOrderAndExtremes() throws {
        let info = Grpc_Testing_ReconnectInfo(passed: true, backoffMs: [0, 1, -1, .max, .min, 300])
        #expect(try roundTrip(info) == info)
        let debug = Google_Rpc_DebugInfo(stackEntries: ["a", "", "ü"], detail: "d")
        #expect(try roundTrip(debug) == debug)
        let files = Grpc_Reflection_V1_FileDescriptorResponse(fileDescriptorProto: [[1, 2], [], [0]])
        #expect(try roundTrip(files) == files)
    }

    @Test func nestedAndRepeatedMessagesSurviveARoundTrip() throws {
        let request = Grpc_Testing_StreamingOutputCallRequest(
            responseType: .compressable,
            responseParameters: [
                .init(size: 1, intervalUs: 0, compressed: nil),
                .init(size: 2, intervalUs: 10, compressed: .init(value: true)),
                .init(),
            ],
            payload: .init(body: [9, 9]),
            responseStatus: .init(code: 13, message: "internal"),
            orcaOobReport: .init(cpuUtilization: 0.25, requestCost: ["b": 2, "a": -1.5])
        )
        #expect(try roundTrip(request) == request)
    }

    @Test func anEmptySubmessageIsPresentAndAnAbsentOneIsNil() throws {
        let present = Grpc_Testing_SimpleRequest(payload: Grpc_Testing_Payload())
        #expect(try present.serializedBytes() == [0x1a, 0x00])
        #expect(try roundTrip(present).payload == Grpc_Testing_Payload())
        #expect(try roundTrip(Grpc_Testing_SimpleRequest()).payload == nil)
    }

    @Test(arguments: [
        Grpc_Reflection_V1_ServerReflectionRequest.OneOf_MessageRequest.fileByFilename(
            "grpc/health/v1/health.proto"),
        .fileContainingSymbol("grpc.health.v1.Health"),
        .fileContainingExtension(.init(containingType: "t", extensionNumber: 5)),
        .fileContainingExtension(.init()),
        .allExtensionNumbersOfType(""),
        .listServices(""),
    ])
    func everyOneofCaseSurvivesARoundTripEvenWhenEmpty(
        choice: Grpc_Reflection_V1_ServerReflectionRequest.OneOf_MessageRequest
    ) throws {
        let request = Grpc_Reflection_V1_ServerReflectionRequest(host: "h", messageRequest: choice)
        #expect(try roundTrip(request).messageRequest == choice)
    }

    @Test func anUnsetOneofStaysNil() throws {
        #expect(try roundTrip(Grpc_Reflection_V1_ServerReflectionRequest(host: "h")).messageRequest == nil)
    }

    @Test func mapsSurviveARoundTripAndEncodeInKeyOrder() throws {
        let info = Google_Rpc_ErrorInfo(
            reason: "R", domain: "kindred", metadata: ["b": "ü", "a": "1", "": ""])
        #expect(try roundTrip(info) == info)
        #expect(try info.serializedBytes() == info.serializedBytes())
        #expect(try roundTrip(Google_Rpc_ErrorInfo()).metadata.isEmpty)
    }

    @Test func aDefaultMessageEncodesToNoBytes() throws {
        #expect(try Grpc_Testing_SimpleRequest().serializedBytes() == [])
        #expect(try Grpc_Testing_SimpleRequest(serializedBytes: []) == Grpc_Testing_SimpleRequest())
    }

    @Test func statusCarriesAnyPackedDetails() throws {
        let info = Google_Rpc_ErrorInfo(reason: "AGE_UNDER_13", domain: "kindred.app")
        let status = Google_Rpc_Status(
            code: 9, message: "under 13",
            details: [
                .init(
                    typeURL: "type.googleapis.com/\(Google_Rpc_ErrorInfo.protoMessageName)",
                    value: try info.serializedBytes())
            ]
        )
        let decoded = try roundTrip(status)
        #expect(decoded == status)
        #expect(try Google_Rpc_ErrorInfo(serializedBytes: decoded.details[0].value) == info)
    }
}
