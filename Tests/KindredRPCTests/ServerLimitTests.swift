import KindredTestSupport
import Testing
import Glibc
@testable import KindredRPC

@Suite struct ServerLimitTests {
    let probe = Probe()

    @Test func deadlinePassedAnswersDeadlineExceededAndCancelsTheHandler() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            // The handler runs until cancelled: only the deadline can end the call.
            let response = client.call(
                path: TestService.path("Sleep"), body: grpcFrames([]),
                extraHeaders: [("grpc-timeout", "150m")])
            #expect(response.grpcStatus == StatusCode.deadlineExceeded.rawValue)
            try await eventually("the handler is cancelled") { probe.count("sleep-cancelled") == 1 }
            #expect(probe.count("sleep-with-deadline") == 1)
        }
    }

    @Test func clientResetCancelsTheHandler() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let id = client.start(path: TestService.path("Sleep"), body: grpcFrames([]))
            client.run { probe.count("sleep-without-deadline") == 1 }
            client.cancel(id)
            client.run { probe.count("sleep-cancelled") == 1 }
            #expect(probe.count("sleep-cancelled") == 1)
        }
    }

    @Test func oversizedMessageIsResourceExhausted() async throws {
        try await withServer([TestService(probe: probe)], configure: { $0.maxReceiveMessageSize = 1000 }) {
            server in
            let client = try HTTP2TestClient(port: server.port)
            let big = client.call(
                path: TestService.path("Echo"), body: grpcFrames([UInt8](repeating: 1, count: 1001)))
            #expect(big.grpcStatus == StatusCode.resourceExhausted.rawValue)
            let perMethod = client.call(
                path: TestService.path("Small"), body: grpcFrames([UInt8](repeating: 1, count: 9)))
            #expect(perMethod.grpcStatus == StatusCode.resourceExhausted.rawValue)
            let fits = client.call(
                path: TestService.path("Small"), body: grpcFrames([UInt8](repeating: 1, count: 8)))
            #expect(fits.grpcStatus == 0)
        }
    }

    @Test func truncatedMessageEndsOnlyThatStream() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            let truncated = client.call(path: TestService.path("Echo"), body: [0, 0, 0, 0, 10, 1, 2])
            #expect(truncated.grpcStatus == StatusCode.internal.rawValue)
            let badFlag = client.call(path: TestService.path("Echo"), body: [7, 0, 0, 0, 0])
            #expect(badFlag.grpcStatus == StatusCode.internal.rawValue)
            let next = client.call(path: TestService.path("Echo"), body: grpcFrames([5]))
            #expect(next.grpcStatus == 0)
        }
    }

    @Test func garbageBytesCloseThatConnectionAndTheServerKeepsServing() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let raw = try Loopback.connect(port: server.port)
            let garbage = [UInt8]("GET / HTTP/1.1\r\nHost: x\r\n\r\n\u{1}\u{2}\u{3}garbage".utf8)
            _ = write(raw, garbage, garbage.count)
            var buffer = [UInt8](repeating: 0, count: 1024)
            var timeout = timeval(tv_sec: 2, tv_usec: 0)
            setsockopt(raw, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            while read(raw, &buffer, buffer.count) > 0 {}
            close(raw)
            let client = try HTTP2TestClient(port: server.port)
            #expect(client.call(path: TestService.path("Echo"), body: grpcFrames([1])).grpcStatus == 0)
        }
    }

    @Test func streamsBeyondTheAdvertisedLimitAreRefused() async throws {
        try await withServer([TestService(probe: probe)], configure: { $0.maxConcurrentStreams = 2 }) {
            server in
            // Sent before the server's SETTINGS arrive, so the client cannot hold the third back itself.
            let client = try HTTP2TestClient(port: server.port)
            let ids = (0..<3).map { _ in client.start(path: TestService.path("Sleep"), body: grpcFrames([])) }
            client.run(timeout: 1) { client.responses[ids[2]]?.closed == true }
            #expect(client.responses[ids[2]]?.resetCode == 7, "REFUSED_STREAM")
            #expect(client.responses[ids[0]]?.closed == false)
        }
    }

    @Test func connectionsBeyondTheLimitGetGoAwayWhenNoneCanBeShed() async throws {
        try await withServer([TestService(probe: probe)], configure: { $0.maxConnections = 1 }) { server in
            let first = try HTTP2TestClient(port: server.port)
            let busy = first.start(path: TestService.path("Sleep"), body: grpcFrames([]))
            first.run(timeout: 2) {
                first.responses[busy]?.closed == true || probe.count("sleep-without-deadline") == 1
            }
            #expect(probe.count("sleep-without-deadline") == 1)
            let second = try HTTP2TestClient(port: server.port)
            second.run(timeout: 1) { second.goAwayReceived }
            #expect(second.goAwayReceived)
        }
    }

    @Test func secondServerOnTheSamePortFailsToBind() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            #expect(throws: SystemCallError.self) {
                _ = try RPCServer.bind(
                    configuration: ServerConfiguration(host: "127.0.0.1", port: server.port),
                    services: [], logger: .init(label: "second"))
            }
        }
    }

    @Test func idleConnectionIsSentGoAway() async throws {
        try await withServer([TestService(probe: probe)], configure: { $0.idleTimeout = .milliseconds(500) })
        { server in
            let client = try HTTP2TestClient(port: server.port)
            #expect(client.call(path: TestService.path("Echo"), body: grpcFrames([1])).grpcStatus == 0)
            client.run(timeout: 3) { client.goAwayReceived }
            #expect(client.goAwayReceived)
        }
    }

    @Test func headerListBeyondTheLimitIsRefused() async throws {
        try await withServer([TestService(probe: probe)], configure: { $0.maxHeaderListSize = 1024 }) {
            server in
            let client = try HTTP2TestClient(port: server.port)
            let response = client.call(
                path: TestService.path("Echo"), body: grpcFrames([]),
                extraHeaders: [("x-big", String(repeating: "a", count: 2000))])
            #expect(response.grpcStatus == StatusCode.resourceExhausted.rawValue || response.resetCode != 0)
            #expect(client.call(path: TestService.path("Echo"), body: grpcFrames([1])).grpcStatus == 0)
        }
    }

    @Test func quietConnectionIsPingedAndClosedWhenThePingGoesUnanswered() async throws {
        try await withServer(
            [TestService(probe: probe)],
            configure: {
                $0.keepaliveInterval = .milliseconds(200)
                $0.keepaliveTimeout = .milliseconds(200)
            }
        ) { server in
            let client = try HTTP2TestClient(port: server.port)
            #expect(client.call(path: TestService.path("Echo"), body: grpcFrames([1])).grpcStatus == 0)
            var buffer = [UInt8](repeating: 0, count: 4096)
            var total = 0
            try await eventually("the server closes the connection") {
                // All that arrived, in one look: after a stall of the suite the PING and the close are both
                // there, and a look that read only the PING would be judged past the deadline (a CI failure).
                while true {
                    var readable = pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&readable, 1, 0) > 0 else { return false }
                    let count = read(client.fd, &buffer, buffer.count)
                    guard count > 0 else { return true }
                    total += count
                }
            }
            #expect(total > 0, "a PING arrived, then the server closed the connection")
        }
    }
}
