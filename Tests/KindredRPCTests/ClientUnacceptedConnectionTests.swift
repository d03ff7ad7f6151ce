import Glibc
import KindredTestSupport
import Testing

@testable import KindredRPC

/// A replica that stops (a drain closing its listener, or a crash) with connections still in the kernel's accept
/// queue resets them: the client had connected, and sent its calls, to a server that never read them. The rolling
/// restart's fault test saw such calls end UNAVAILABLE ("the connection to the server was lost"); they are sent
/// again to another replica, as a refused stream is, since a server writes its SETTINGS before it reads a request.
@Suite(.timeLimit(.minutes(1))) struct ClientUnacceptedConnectionTests {
    @Test func callsQueuedOnAListenerThatClosedUnreadGoToAnotherReplica() async throws {
        try await onClientTestLoop {
            let fleet = try LoopbackFleet(["127.0.0.2"])
            // Listens on 127.0.0.3 and never accepts: connects complete in the kernel, and requests wait there.
            let (unaccepting, _) = try Loopback.bind(host: "127.0.0.3", port: fleet.port, listening: 16)
            let queue = ResolvedAddress(numericHost: "127.0.0.3", port: UInt16(fleet.port))!
            let client = try balancingClient(ScriptedResolver(fleet.addresses + [queue]), port: fleet.port)
            // One call answered, and the client's connection to 127.0.0.3 waiting to be accepted: both are ready.
            let first: ClientTestText = try await client.unary(
                method: ClientTestService.method("Echo"), request: ClientTestText("first"))
            #expect(first.text == "first")
            try await eventually { Self.acceptQueueLength(of: unaccepting) == 1 }
            // Not idempotent (the default): sent again only because no server read them.
            let calls = (0..<8).map { index in
                Task(executorPreference: clientTestLoop) { () async throws -> String in
                    let reply: ClientTestText = try await client.unary(
                        method: ClientTestService.method("Echo"), request: ClientTestText("\(index)"))
                    return reply.text
                }
            }
            try await eventually { fleet.served[0] > 1 }
            try await Task.sleep(for: .milliseconds(200))
            #expect(fleet.served[0] < 9, "calls wait in 127.0.0.3's accept queue")
            close(unaccepting)
            var replies: [String] = []
            for call in calls { replies.append(try await call.value) }
            #expect(replies == (0..<8).map { "\($0)" })
            #expect(fleet.served == [9])
            client.close()
            await fleet.stop()
        }
    }

    /// Connections waiting in a listening socket's accept queue (Linux reports it as a listener's `tcpi_unacked`).
    static func acceptQueueLength(of listener: Int32) -> UInt32 {
        var info = tcp_info()
        var length = socklen_t(MemoryLayout<tcp_info>.size)
        guard getsockopt(listener, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0 else { return 0 }
        return info.tcpi_unacked
    }
}
