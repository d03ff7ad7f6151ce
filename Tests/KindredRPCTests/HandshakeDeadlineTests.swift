import Glibc
import KindredTestSupport
import Synchronization
import Testing
@testable import KindredRPC

/// 730 of 10,000 TLS connections opened at 2,000 a second were closed by the handshake deadline although
/// their clients had answered: the loop was behind, and one epoll wake-up returns at most 512 sockets, so the
/// deadlines of the rest passed with their bytes waiting unread.
@Suite struct HandshakeDeadlineTests {
    /// More ready sockets than one wake-up of the loop returns.
    static let clients = 600
    static let deadline = Duration.milliseconds(300)

    @Test func clientWhoseHandshakeWaitsUnreadOnABusyLoopIsNotClosed() async throws {
        try await withServer(
            [TestService(probe: Probe())],
            configure: {
                $0.eventLoopCount = 1
                $0.handshakeTimeout = Self.deadline
            }
        ) { server in
            let sockets = try (0..<Self.clients).map { _ in try Loopback.connect(port: server.port) }
            defer { sockets.forEach { close($0) } }
            while server.core.openConnections < Self.clients { await Task.yield() }
            let loop = BusyLoop()
            // The loop is busy from now until every connection's deadline has passed, as under a burst of
            // handshakes; the clients answer meanwhile.
            server.loops[0].execute {
                let until = monotonicNanos() + UInt64(Self.deadline / .nanoseconds(1))
                loop.busy.store(true, ordering: .releasing)
                while !loop.answered.load(ordering: .acquiring) || monotonicNanos() < until { usleep(1000) }
            }
            while !loop.busy.load(ordering: .acquiring) { await Task.yield() }
            for socket in sockets {
                #expect(writeAll(socket, FrameHeaderScannerTests.preface + RawFrame(type: 4).bytes))
            }
            loop.answered.store(true, ordering: .releasing)

            let acknowledged = sockets.filter { socket in
                RawFrameReader(fd: socket).read { $0.type == 4 && $0.flags & 1 != 0 } != nil
            }
            #expect(acknowledged.count == Self.clients, "every client's SETTINGS acknowledged, none closed")
        }
    }
}

private final class BusyLoop: Sendable {
    let busy = Atomic<Bool>(false)
    let answered = Atomic<Bool>(false)
}
