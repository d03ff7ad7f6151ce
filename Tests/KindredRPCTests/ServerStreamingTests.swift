import KindredAuth
import KindredTestSupport
import Testing
@testable import KindredRPC

@Suite struct ServerStreamingTests {
    let probe = Probe()

    @Test func serverStreamSendsEveryMessageThenOK() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let response = client.call(path: TestService.path("Count"), body: grpcFrames([5]))
            #expect(grpcMessages(response.data) == [[0], [1], [2], [3], [4]])
            #expect(response.grpcStatus == 0)
        }
    }

    /// WatchMessages sent no HEADERS until its first message: a client could not tell its stream was open.
    @Test func serverStreamSendsItsHeadersBeforeAnyMessage() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let id = client.start(path: TestService.path("Silent"), body: grpcFrames([]))
            client.run(timeout: 3) { client.responses[id]?.headers.isEmpty == false }
            let response = try #require(client.responses[id])
            #expect(response.httpStatus == 200)
            #expect(response.header("x-watching") == "yes", "what the handler set before it first waited")
            #expect(response.data.isEmpty && !response.closed)
        }
    }

    /// Streams open at a drain ended with OK, which a generic client takes for a normal end and does not retry.
    @Test func streamOpenWhenTheServerDrainsEndsWithUnavailableAfterGoAway() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let id = client.start(path: TestService.path("Silent"), body: grpcFrames([]))
            client.run(timeout: 3) { client.responses[id]?.headers.isEmpty == false }
            server.beginGracefulShutdown(drainTimeout: .milliseconds(200))
            let response = client.wait(id)
            #expect(client.goAwayReceived)
            #expect(response.grpcStatus == StatusCode.unavailable.rawValue)
            #expect(
                response.grpcMessage.map(PercentEncoding.decode)
                    == "The server is shutting down. Please reconnect.")
        }
    }

    @Test func errorAfterAMessageArrivesInTrailersWithDetails() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let response = client.call(
                path: TestService.path("CountThenFail"), body: grpcFrames([]),
                extraHeaders: [("x-request-id", "req-7")])
            #expect(grpcMessages(response.data) == [[7]], "the handler saw the client's request id")
            #expect(response.headers.first { $0.name == "grpc-status" } == nil)
            #expect(response.trailers.first { $0.name == "grpc-status" }?.value == "10")
            let details = response.trailers.first { $0.name == "grpc-status-details-bin" }?.value
            #expect(
                details.flatMap(Base64.decode).flatMap(StatusDetails.decode) == [
                    .retryInfo(retryDelay: .milliseconds(100))
                ])
        }
    }

    @Test func responsesAreNotCompressedUnlessTheHandlerAsks() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let response = client.call(
                path: TestService.path("Echo"), body: grpcFrames([1]),
                extraHeaders: [("grpc-accept-encoding", "gzip")])
            #expect(response.header("grpc-encoding") == nil)
            #expect(response.data == grpcFrames([1]))
        }
    }

    @Test func clientStreamIsCollectedUntilHalfClose() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let id = client.start(
                path: TestService.path("Collect"), body: grpcFrames([1], [2, 3]), endStream: false)
            client.flush()
            client.sendMore(id, grpcFrames([4]), end: true)
            let response = client.wait(id)
            #expect(grpcMessages(response.data) == [[1, 2, 3, 4]])
            #expect(response.grpcStatus == 0)
        }
    }

    @Test func bidirectionalStreamAnswersEachMessageAsItArrives() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let id = client.start(path: TestService.path("Chat"), body: grpcFrames([1]), endStream: false)
            client.run { grpcMessages(client.responses[id]?.data ?? []).count == 1 }
            client.sendMore(id, grpcFrames([2]), end: false)
            client.run { grpcMessages(client.responses[id]?.data ?? []).count == 2 }
            client.sendMore(id, [], end: true)
            let response = client.wait(id)
            #expect(grpcMessages(response.data) == [[1], [2]])
            #expect(response.grpcStatus == 0)
        }
    }

    @Test func slowReaderSuspendsTheWriterInsteadOfBuffering() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let id = client.start(path: TestService.path("Flood"), body: grpcFrames([]))
            client.flush()
            try await eventually("the flood fills the window") { probe.count("flood-written") >= 4 }
            try await consistently("64 KiB window + 64 KiB buffer hold a handful of 16 KiB messages") {
                probe.count("flood-written") < 20
            }
            client.cancel(id)
            client.flush()
        }
    }

    @Test func writesFromATaskOffTheLoopAreCarriedOver() async throws {
        try await withServer([DetachedWriterService()]) { server in
            let client = try HTTP2TestClient(port: server.port)
            // The writer is a task on the cooperative pool, which the suite's other tests keep busy: a long wait.
            let response = client.call(path: "/test.Detached/Write", body: grpcFrames([]), timeout: 30)
            #expect(grpcMessages(response.data) == [[42]])
            #expect(response.grpcStatus == 0)
        }
    }

    @Test func drainTimeoutCancelsCallsStillRunning() async throws {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.eventLoopCount = 1
        let server = try RPCServer.bind(
            configuration: configuration, services: [TestService(probe: probe)],
            logger: .init(label: "test"))
        let running = Task { try await server.run() }
        while !server.isRunning { await Task.yield() }
        let client = try HTTP2TestClient(port: server.port)
        let id = client.start(path: TestService.path("Sleep"), body: grpcFrames([]))
        client.run { probe.count("sleep-without-deadline") == 1 }
        server.beginGracefulShutdown(drainTimeout: .milliseconds(300))
        // The handler runs until cancelled: only the drain timeout can end the call and let the server stop.
        client.run(timeout: 30) { client.responses[id]?.closed == true }
        try await running.value
        try await eventually("the handler is cancelled") { probe.count("sleep-cancelled") == 1 }
    }

    @Test func gracefulShutdownLetsTheCallInFlightFinish() async throws {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.eventLoopCount = 1
        let server = try RPCServer.bind(
            configuration: configuration, services: [TestService(probe: probe)],
            logger: .init(label: "test"))
        let running = Task { try await server.run() }
        while !server.isRunning { await Task.yield() }
        let client = try HTTP2TestClient(port: server.port)
        let id = client.start(path: TestService.path("Chat"), body: grpcFrames([1]), endStream: false)
        client.run { !(client.responses[id]?.data.isEmpty ?? true) }
        server.beginGracefulShutdown(drainTimeout: .seconds(2))
        client.run { client.goAwayReceived }
        #expect(client.goAwayReceived)
        client.sendMore(id, grpcFrames([2]), end: true)
        let response = client.wait(id)
        #expect(grpcMessages(response.data) == [[1], [2]])
        #expect(response.grpcStatus == 0)
        try await running.value
        #expect(throws: TestFailure.self) { _ = try HTTP2TestClient(port: server.port) }
    }
}
