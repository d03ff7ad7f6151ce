import Foundation
import Glibc
import KindredTestSupport
import Testing
@testable import KindredRPC

/// The handshake deadline wired to a real loop; its timing rules (a silent client is closed, one whose bytes
/// wait unread gets the deadline again) are table-tested in `ConnectionStateTests`. Every client here has
/// sent its preface before its deadline starts, so a loaded machine only slows these tests down.
@Suite struct HandshakeDeadlineTests {
    /// More ready sockets than one wake-up of the loop returns (512).
    static let clients = 600
    static let deadline = Duration.milliseconds(300)

    @Test func silentClientIsClosedAtTheDeadline() async throws {
        try await withServer(
            [TestService(probe: Probe())], configure: { $0.handshakeTimeout = Self.deadline }
        ) { server in
            let socket = try Loopback.connect(port: server.port)
            defer { close(socket) }
            let reader = RawFrameReader(fd: socket)
            reader.readToEnd()
            #expect(reader.peerClosed, "closed, not left open")
            #expect(!reader.frames.contains { $0.type == RawFrame.goAway }, "closed without a GOAWAY")
        }
    }

    /// 730 of 10,000 TLS connections opened at 2,000 a second were closed by the handshake deadline although
    /// their clients had answered: the loop was behind, and one epoll wake-up returns at most 512 sockets, so
    /// the deadlines of the rest passed with their bytes waiting unread.
    @Test func clientWhoseHandshakeWaitsUnreadOnABusyLoopIsNotClosed() async throws {
        try await withServer(
            [TestService(probe: Probe())],
            configure: {
                $0.eventLoopCount = 1
                $0.handshakeTimeout = Self.deadline
            }
        ) { server in
            // The loop is held while the clients connect and send their preface, so every client has answered
            // before its deadline starts.
            let hold = LoopHold(server.loops[0])
            let sockets = try (0..<Self.clients).map { _ in try Loopback.connect(port: server.port) }
            defer { sockets.forEach { close($0) } }
            for socket in sockets {
                #expect(writeAll(socket, FrameHeaderScannerTests.preface + RawFrame(type: 4).bytes))
            }
            // Once every client is accepted, the loop is busy past their deadlines, as under a burst of
            // handshakes: the sockets it has not read yet meet their deadline with bytes waiting.
            let loop = server.loops[0]
            let core = server.core
            @Sendable func busyOnceAllAccepted() {
                guard core.openConnections == Self.clients else {
                    // Let the loop accept more first (`execute` would run this again inline).
                    loop.schedule(after: .milliseconds(1)) { busyOnceAllAccepted() }
                    return
                }
                let until = monotonicNanos() + UInt64(Self.deadline / .nanoseconds(1)) * 2
                while monotonicNanos() < until { usleep(1000) }
            }
            loop.execute(busyOnceAllAccepted)
            hold.release()

            let acknowledged = sockets.filter { socket in
                RawFrameReader(fd: socket).read { $0.type == 4 && $0.flags & 1 != 0 } != nil
            }
            #expect(acknowledged.count == Self.clients, "every client's SETTINGS acknowledged, none closed")
        }
    }
}
