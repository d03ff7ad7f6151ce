import KindredAuth
import Testing
@testable import KindredRPC

@Suite struct ServerUnaryTests {
    let probe = Probe()

    @Test func unaryCallEchoesTheMessageWithStatusOK() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let response = client.call(path: TestService.path("Echo"), body: grpcFrames([1, 2, 3]))
            #expect(response.httpStatus == 200)
            #expect(response.header("content-type") == "application/grpc")
            #expect(grpcMessages(response.data) == [[1, 2, 3]])
            #expect(response.grpcStatus == 0)
        }
    }

    @Test func handlerThatDoesNotSuspendRunsOnItsEventLoopThread() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let response = client.call(path: TestService.path("ThreadName"), body: grpcFrames([]))
            let name = String(decoding: grpcMessages(response.data).first ?? [], as: UTF8.self)
            #expect(name.hasPrefix("rpc-loop-"))
        }
    }

    @Test func manyConcurrentCallsOnOneConnectionAllSucceed() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let ids = (0..<200).map {
                client.start(path: TestService.path("Echo"), body: grpcFrames([UInt8($0 % 256)]))
            }
            client.run { ids.allSatisfy { client.responses[$0]?.closed == true } }
            for (index, id) in ids.enumerated() {
                #expect(client.responses[id]?.grpcStatus == 0)
                #expect(grpcMessages(client.responses[id]?.data ?? []) == [[UInt8(index % 256)]])
            }
        }
    }

    @Test func thrownRPCErrorReachesTheCallerWithDetailsAndTrailers() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let response = client.call(path: TestService.path("Fail"), body: grpcFrames([]))
            #expect(response.grpcStatus == StatusCode.permissionDenied.rawValue)
            #expect(response.grpcMessage == "not allowed: 100%25 %E2%9C%93")
            #expect(response.trailer("x-why") == "because")
            #expect(response.trailer("x-trailer") == "kept")
            let details = try #require(response.trailer("grpc-status-details-bin").flatMap(Base64.decode))
            #expect(details.count > 20)
            #expect(response.trailers.isEmpty, "an error before any message is a trailers-only response")
        }
    }

    @Test func otherErrorsBecomeInternalWithAGenericMessage() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let response = client.call(path: TestService.path("Crash"), body: grpcFrames([]))
            #expect(response.grpcStatus == StatusCode.internal.rawValue)
            #expect(response.grpcMessage == RPCError.internalMessage)
        }
    }

    @Test(arguments: ["/test.Service/Missing", "/no.Such/Service", "/garbage"])
    func unknownMethodIsUnimplemented(path: String) async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let response = client.call(path: path, body: grpcFrames([]))
            #expect(response.httpStatus == 200)
            #expect(response.grpcStatus == StatusCode.unimplemented.rawValue)
        }
    }

    @Test func wrongContentTypeIsHTTP415() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let response = client.call(
                path: TestService.path("Echo"), body: grpcFrames([]), contentType: "application/json")
            #expect(response.httpStatus == 415)
        }
    }

    @Test func malformedRequestMessageIsInvalidArgument() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let response = client.call(path: TestService.path("Echo"), body: grpcFrames([0xFF]))
            #expect(response.grpcStatus == StatusCode.invalidArgument.rawValue)
        }
    }

    @Test func metadataTravelsBothWaysIncludingBinary() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let response = client.call(
                path: TestService.path("Metadata"), body: grpcFrames([]),
                extraHeaders: [("x-in", "hello"), ("x-data-bin", "AAEC/w==")])
            #expect(response.header("x-echo") == "hello")
            #expect(response.trailer("x-data-bin") == "AAEC/w")
            #expect(response.grpcStatus == 0)
        }
    }

    @Test func gzipRequestIsInflatedAndResponseCompressedWhenAccepted() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            var body: [UInt8] = []
            MessageDeframer.frame(MessageEncoding.gzip([9, 9, 9]), compressed: true, into: &body)
            let response = client.call(
                path: TestService.path("Compressed"), body: body,
                extraHeaders: [("grpc-encoding", "gzip"), ("grpc-accept-encoding", "gzip")])
            #expect(response.grpcStatus == 0)
            #expect(response.header("grpc-encoding") == "gzip")
            #expect(response.data.first == 1)
            let payload = try #require(grpcMessages(response.data).first)
            #expect(
                try MessageEncoding.gunzip(payload, limit: 100) == [9, 9, 9, 1],
                "the handler saw a compressed request")
        }
    }

    @Test func unknownRequestEncodingIsUnimplementedWithAcceptEncoding() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let response = client.call(
                path: TestService.path("Echo"), body: grpcFrames([]),
                extraHeaders: [("grpc-encoding", "snappy")])
            #expect(response.grpcStatus == StatusCode.unimplemented.rawValue)
            #expect(response.header("grpc-accept-encoding") == "identity,gzip")
        }
    }
}
