import Glibc
import KindredTestSupport
import Testing
@testable import KindredRPC

/// Sockets that connect and never speak once held every place under `maxConnections` until the keepalive
/// dropped them 140 s later, and every real client was refused meanwhile.
@Suite struct ConnectionAdmissionTests {
    let probe = Probe()

    @Test func silentConnectionIsClosedAfterTheHandshakeTimeout() async throws {
        try await withServer(
            [TestService(probe: probe)], configure: { $0.handshakeTimeout = .milliseconds(200) }
        ) { server in
            let silent = try Loopback.connect(port: server.port)
            defer { close(silent) }
            let reader = RawFrameReader(fd: silent)
            reader.readToEnd()
            #expect(reader.peerClosed, "closed by the server, not by the 5 s read timeout")
            #expect(reader.frames.first?.type == 4, "after its own SETTINGS")
        }
    }

    @Test func connectionThatFinishesItsHandshakeOutlivesTheHandshakeTimeout() async throws {
        try await withServer(
            [TestService(probe: probe)], configure: { $0.handshakeTimeout = .milliseconds(100) }
        ) { server in
            let client = try HTTP2TestClient(port: server.port)
            #expect(client.call(path: TestService.path("Echo"), body: grpcFrames([1])).grpcStatus == 0)
            let sleeping = client.start(path: TestService.path("Sleep"), body: grpcFrames([]))
            client.run(timeout: 2) { probe.count("sleep-without-deadline") == 1 }
            // Past the handshake timeout by the time the second call starts: the connection is still served.
            client.run(timeout: 0.3) { client.responses[sleeping]?.closed == true }
            #expect(client.call(path: TestService.path("Echo"), body: grpcFrames([2])).grpcStatus == 0)
        }
    }

    /// The 10,200 sockets against 10,000 places, scaled down with the same settings (the full size
    /// was run by hand against a release build: see the README).
    @Test func silentSocketsAtTheLimitDoNotLockOutAClient() async throws {
        try await withServer(
            [TestService(probe: probe)],
            configure: {
                $0.maxConnections = 200
                $0.handshakeTimeout = .seconds(60)
            }
        ) { server in
            let silent = try (0..<210).map { _ in try Loopback.connect(port: server.port) }
            defer { silent.forEach { close($0) } }
            let client = try HTTP2TestClient(port: server.port)
            let response = client.call(path: TestService.path("Echo"), body: grpcFrames([1]), timeout: 3)
            #expect(response.grpcStatus == 0)
            #expect(!client.goAwayReceived)
        }
    }

    @Test func connectionIdleLongestMakesRoomForANewcomerAtTheLimit() async throws {
        try await withServer([TestService(probe: probe)], configure: { $0.maxConnections = 2 }) { server in
            let oldest = try HTTP2TestClient(port: server.port)
            #expect(oldest.call(path: TestService.path("Echo"), body: grpcFrames([1])).grpcStatus == 0)
            let younger = try HTTP2TestClient(port: server.port)
            #expect(younger.call(path: TestService.path("Echo"), body: grpcFrames([2])).grpcStatus == 0)
            let newcomer = try HTTP2TestClient(port: server.port)
            #expect(newcomer.call(path: TestService.path("Echo"), body: grpcFrames([3])).grpcStatus == 0)
            oldest.run(timeout: 3) { oldest.goAwayReceived }
            #expect(oldest.goAwayReceived)
            #expect(younger.call(path: TestService.path("Echo"), body: grpcFrames([4])).grpcStatus == 0)
            #expect(!younger.goAwayReceived)
        }
    }
}
