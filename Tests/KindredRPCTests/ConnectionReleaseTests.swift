import Glibc
import KindredTestSupport
import Testing
@testable import KindredRPC

/// A connection's timers hold it strongly (a weak capture gave every connection a side table, issue 27), so
/// tearing it down must cancel them: otherwise the connection of a client who left, its session freed, would
/// stay in memory until its timers fire.
@Suite struct ConnectionReleaseTests {
    /// The state machine cancels this deadline itself when the connection closes.
    @Test func aClientWhoLeavesBeforeItsHandshakeDeadlineFreesItsConnection() async throws {
        try await withServer(
            [TestService(probe: Probe())],
            configure: {
                $0.eventLoopCount = 1
                $0.handshakeTimeout = .seconds(3_600)
            }
        ) { server in
            let socket = try Loopback.connect(port: server.port)
            let tracked = try await acceptedConnection(of: server, from: socket)
            close(socket)
            try await expectFreed(tracked, on: server.loops[0])
        }
    }

    /// Only tear-down cancels the grace the age's final GOAWAY arms (an hour here): a client that leaves during
    /// it must not leave its connection behind for the rest of the hour.
    @Test func aClientWhoLeavesDuringItsAgesGraceFreesItsConnection() async throws {
        try await withServer(
            [TestService(probe: Probe())],
            configure: {
                $0.eventLoopCount = 1
                $0.maxConnectionAge = .milliseconds(100)
                $0.maxConnectionAgeGrace = .seconds(3_600)
            }
        ) { server in
            let socket = try Loopback.connect(port: server.port)
            // A call whose request has not ended keeps the connection through the grace.
            let call = RawFrame(type: 1, flags: 0x4, streamID: 1, payload: Self.literalHeaders(Self.echoCall))
            #expect(writeAll(socket, FrameHeaderScannerTests.preface + RawFrame(type: 4).bytes + call.bytes))
            let tracked = try await acceptedConnection(of: server, from: socket)
            let reader = RawFrameReader(fd: socket)
            var goAways = 0
            let final = reader.read { frame in
                if frame.type == RawFrame.goAway { goAways += 1 }
                return goAways == 2
            }
            #expect(final != nil, "the age's notice, then the final GOAWAY: the grace is armed")
            close(socket)
            try await expectFreed(tracked, on: server.loops[0])
        }
    }

    static let echoCall = [
        (":method", "POST"), (":scheme", "http"), (":path", TestService.path("Echo")), (":authority", "test"),
        ("content-type", "application/grpc"), ("te", "trailers"),
    ]

    /// A header block of HPACK literals without indexing (names and values under 127 bytes).
    static func literalHeaders(_ headers: [(String, String)]) -> [UInt8] {
        var block: [UInt8] = []
        for (name, value) in headers {
            block.append(0)
            for text in [name, value] {
                block.append(UInt8(text.utf8.count))
                block.append(contentsOf: text.utf8)
            }
        }
        return block
    }

    /// The server's connection from `socket`, tracked once its loop has it. Found by the client's port: another
    /// test that probes ports may connect to this server too.
    private func acceptedConnection(of server: RPCServer, from socket: Int32) async throws
        -> TrackedConnection
    {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        #expect(named == 0)
        let peer = ":\(UInt16(bigEndian: address.sin_port))"
        let loop = server.loops[0]
        let tracked = TrackedConnection(nil)
        try await eventually("the server accepted the connection") {
            await onLoop(loop) {
                tracked.connection = loop.liveConnections.first { $0.peer.hasSuffix(peer) }
                return tracked.isAlive
            }
        }
        return tracked
    }

    /// Waits for the connection to close and be freed. A closed connection may wait for the loop's next
    /// maintenance tick (a second) to leave the queue of connections awaiting their handshake.
    private func expectFreed(_ tracked: TrackedConnection, on loop: EventLoop) async throws {
        try await eventually("freed, though a timer of it was due in an hour") {
            await onLoop(loop) { !tracked.isAlive }
        }
    }

    /// Runs `body` on `loop`'s thread, where its connections live, and returns its answer.
    private func onLoop<Answer: Sendable>(_ loop: EventLoop, _ body: @escaping @Sendable () -> Answer) async
        -> Answer
    {
        await withCheckedContinuation { continuation in
            loop.execute { continuation.resume(returning: body()) }
        }
    }
}

/// A weak reference to a server connection, read on its loop.
private final class TrackedConnection: @unchecked Sendable {
    weak var connection: Connection?

    init(_ connection: Connection?) {
        self.connection = connection
    }

    var isAlive: Bool { connection != nil }
}
