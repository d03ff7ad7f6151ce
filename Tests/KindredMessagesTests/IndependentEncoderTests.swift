import KindredMessages
import Testing

/// Bytes written by Python's google.protobuf 4.21 (`SerializeToString(deterministic=True)`), decoded here
/// and compared both ways: our encoder must write the same bytes for the same message.
@Suite struct IndependentEncoderTests {
    @Test func simpleRequestMatchesPython() throws {
        let bytes = hex(
            "10af96131a071205000102feff20013a130802120f68c3a96c6c6f20e29c9320f09f918b4202080150015a25090000"
                + "00000000e03f1a0c0a016111000000000000f83f1a0c0a01621100000000000000c0")
        let expected = Grpc_Testing_SimpleRequest(
            responseSize: 314_159, payload: .init(body: [0, 1, 2, 0xFE, 0xFF]), fillUsername: true,
            responseStatus: .init(code: 2, message: "héllo ✓ 👋"), expectCompressed: .init(value: true),
            fillGrpclbRouteType: true,
            orcaPerQueryReport: .init(cpuUtilization: 0.5, requestCost: ["a": 1.5, "b": -2])
        )
        #expect(try Grpc_Testing_SimpleRequest(serializedBytes: bytes) == expected)
        #expect(try expected.serializedBytes() == bytes)
    }

    @Test func repeatedMessagesMatchPython() throws {
        let bytes = hex("1202080112080802100a1a02080112020803")
        let expected = Grpc_Testing_StreamingOutputCallRequest(responseParameters: [
            .init(size: 1), .init(size: 2, intervalUs: 10, compressed: .init(value: true)), .init(size: 3),
        ])
        #expect(try Grpc_Testing_StreamingOutputCallRequest(serializedBytes: bytes) == expected)
        #expect(try expected.serializedBytes() == bytes)
    }

    @Test func packedNegativeIntegersMatchPython() throws {
        let bytes = hex("0801121201ac02fbffffffffffffffff01ffffffff07")
        let expected = Grpc_Testing_ReconnectInfo(passed: true, backoffMs: [1, 300, -5, .max])
        #expect(try Grpc_Testing_ReconnectInfo(serializedBytes: bytes) == expected)
        #expect(try expected.serializedBytes() == bytes)
    }

    @Test func oneofAndRepeatedBytesMatchPython() throws {
        let bytes = hex("0a017812023a0022070a030a01610a00")
        let expected = Grpc_Reflection_V1_ServerReflectionResponse(
            validHost: "x", originalRequest: .init(messageRequest: .listServices("")),
            messageResponse: .fileDescriptorResponse(.init(fileDescriptorProto: [[0x0A, 0x01, 0x61], []]))
        )
        #expect(try Grpc_Reflection_V1_ServerReflectionResponse(serializedBytes: bytes) == expected)
        #expect(try expected.serializedBytes() == bytes)
    }

    @Test func statusWithPackedErrorInfoMatchesPython() throws {
        let bytes = hex(
            "080312036261641a460a28747970652e676f6f676c65617069732e636f6d2f676f6f676c652e7270632e4572726f72"
                + "496e666f121a0a03414745120b6b696e647265642e6170701a060a016b120176")
        let status = try Google_Rpc_Status(serializedBytes: bytes)
        #expect(status.code == 3 && status.message == "bad")
        #expect(status.details.first?.typeURL == "type.googleapis.com/google.rpc.ErrorInfo")
        let info = try Google_Rpc_ErrorInfo(serializedBytes: status.details[0].value)
        #expect(info == Google_Rpc_ErrorInfo(reason: "AGE", domain: "kindred.app", metadata: ["k": "v"]))
        #expect(try status.serializedBytes() == bytes)
    }

    @Test func commonTypesMatchPython() throws {
        #expect(
            try Google_Type_Date(serializedBytes: hex("08e80f1002181d"))
                == .init(year: 2024, month: 2, day: 29))
        let retry = Google_Rpc_RetryInfo(retryDelay: .init(seconds: 30, nanos: 5))
        #expect(try retry.serializedBytes() == hex("0a04081e1005"))
    }
}
