import KindredRPC
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1))) struct ClientCallTests {
    @Test func unaryCallFromOutsideAnyLoopReturnsTheResponse() async throws {
        let server = try ClientTestServer()
        let client = try RPCClient(target: server.target, configuration: .tests)
        let response = try await client.unary(
            method: ClientTestService.method("Echo"), request: ClientTestText("hello"),
            responseType: ClientTestText.self)
        #expect(response.text == "hello")
        client.close()
        await server.stop()
    }

    @Test func compressedRequestIsUnderstood() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let client = try RPCClient(target: server.target, configuration: .tests)
            let text = String(repeating: "kindred ", count: 1000)
            let response: ClientTestText = try await client.unary(
                method: ClientTestService.method("Echo"), request: ClientTestText(text),
                options: CallOptions(compressRequest: true))
            #expect(response.text == text)
            client.close()
            await server.stop()
        }
    }

    @Test func errorReachesTheCallerWithMessageDetailsAndTrailers() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let client = try RPCClient(target: server.target, configuration: .tests)
            let error = await #expect(throws: RPCError.self) {
                let _: ClientTestText = try await client.unary(
                    method: ClientTestService.method("Echo"), request: ClientTestText("fail"))
            }
            #expect(error?.code == .permissionDenied)
            #expect(error?.message == "not allowed: 100% ✋")
            #expect(
                error?.details == [
                    .errorInfo(reason: "PARENTAL_CONTROLS", domain: "kindred.test", metadata: ["k": "v"]),
                    .retryInfo(retryDelay: .seconds(3)),
                ])
            #expect(error?.trailers["x-reason"] == "asked to")
            client.close()
            await server.stop()
        }
    }

    @Test func unknownMethodIsUnimplemented() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let client = try RPCClient(target: server.target, configuration: .tests)
            let error = await #expect(throws: RPCError.self) {
                let _: ClientTestText = try await client.unary(
                    method: .init(service: "test.Client", method: "Nope"), request: ClientTestText())
            }
            #expect(error?.code == .unimplemented)
            client.close()
            await server.stop()
        }
    }

    /// The server holds its answer until the test has the client's error: a client that waited for it would
    /// never finish (the suite's time limit fails it).
    @Test func callPastItsDeadlineFailsWithDeadlineExceeded() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let client = try RPCClient(target: server.target, configuration: .tests)
            let error = await #expect(throws: RPCError.self) {
                let _: ClientTestText = try await client.unary(
                    method: ClientTestService.method("Hold"), request: ClientTestText(),
                    options: CallOptions(timeout: .milliseconds(200)))
            }
            #expect(error?.code == .deadlineExceeded)
            server.observations.hold.open()
            client.close()
            await server.stop()
        }
    }

    @Test func everyCallCarriesADeadline() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            var configuration = ClientConfiguration.tests
            configuration.defaultTimeout = .seconds(20)
            let client = try RPCClient(target: server.target, configuration: configuration)
            let remaining: ClientTestText = try await client.unary(
                method: ClientTestService.method("Deadline"), request: ClientTestText())
            let milliseconds = try #require(Int(remaining.text))
            #expect(milliseconds > 10_000 && milliseconds <= 20_000)
            client.close()
            await server.stop()
        }
    }

    @Test func callFromAHandlerInheritsTheHandlersEarlierDeadline() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let client = try RPCClient(target: server.target, configuration: .tests)
            server.observations.relayClient.withLock { $0 = client }
            let relayed: ClientTestText = try await client.unary(
                method: ClientTestService.method("Relay"), request: ClientTestText(),
                options: CallOptions(timeout: .seconds(20)))
            let milliseconds = try #require(Int(relayed.text))
            #expect(milliseconds > 10_000 && milliseconds <= 20_000, "the handler's 20 s, not the default")
            server.observations.relayClient.withLock { $0 = nil }
            client.close()
            await server.stop()
        }
    }

    @Test func metadataRoundTripsWithForwardedAuthorization() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let client = try RPCClient(target: server.target, configuration: .tests)
            var inbound = Metadata()
            inbound.add("authorization", "Bearer token-1")
            var options = CallOptions()
            options.metadata.add("x-echo", "hi there")
            options.metadata.add("x-blob", binary: [0, 1, 255])
            options.forwardAuthorization(from: inbound)
            let response = try await client.unaryResponse(
                method: ClientTestService.method("Metadata"), request: ClientTestText(), options: options,
                responseType: ClientTestText.self)
            #expect(response.message.text == "hi there|Bearer token-1|[0, 1, 255]")
            #expect(response.headers["x-echo-header"] == "hi there")
            #expect(response.trailers[binary: "x-echo-trailer-bin"] == [9, 8])
            client.close()
            await server.stop()
        }
    }

    @Test func manyConcurrentCallsShareOneConnection() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer(maxConcurrentStreams: 16)
            var configuration = ClientConfiguration.tests
            configuration.connectionsPerLoop = 1
            let client = try RPCClient(target: server.target, configuration: configuration)
            let peers = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<200 {
                    group.addTask {
                        let response: ClientTestText = try await client.unary(
                            method: ClientTestService.method("Peer"), request: ClientTestText())
                        return response.text
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(peers.count == 1)
            client.close()
            await server.stop()
        }
    }
}
