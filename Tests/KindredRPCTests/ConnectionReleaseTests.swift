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
            let tracked = try await acceptedConnection(of: server)
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
            #expect(writeAll(socket, FrameHeaderScannerTests.preface + RawFrame(type: 4).bytes))
            let tracked = try await acceptedConnection(of: server)
            let reader = RawFrameReader(fd: socket)
            #expect(reader.read { $0.type == RawFrame.goAway } != nil, "the age's notice")
            #expect(reader.read { $0.type == RawFrame.goAway } != nil, "the final GOAWAY, the grace armed")
            close(socket)
            try await expectFreed(tracked, on: server.loops[0])
        }
    }

    /// The server's only connection, tracked once accepted.
    private func acceptedConnection(of server: RPCServer) async throws -> TrackedConnection {
        try await eventually("the server accepted the connection") { server.core.openConnections == 1 }
        let loop = server.loops[0]
        let tracked = await onLoop(loop) {
            TrackedConnection(loop.connections.lazy.compactMap { $0 as? Connection }.first)
        }
        #expect(await onLoop(loop) { tracked.isAlive }, "tracking the accepted connection")
        return tracked
    }

    /// Waits for the connection to close and be freed. A closed connection may wait for the loop's next
    /// maintenance tick (a second) to leave the queue of connections awaiting their handshake.
    private func expectFreed(_ tracked: TrackedConnection, on loop: EventLoop) async throws {
        try await eventually("freed, though a timer of it was due in an hour", within: .seconds(10)) {
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
