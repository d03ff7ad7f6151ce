import Foundation
import Glibc
import KindredTestSupport
import Synchronization
import Testing
@testable import KindredRPC

/// 730 of 10,000 TLS connections opened at 2,000 a second were closed by the handshake deadline although
/// their clients had answered: the loop was behind, and one epoll wake-up returns at most 512 sockets, so the
/// deadlines of the rest passed with their bytes waiting unread.
///
/// It holds 600 sockets and times one event loop against a deadline, which the rest of the suite running beside
/// it on 2 cores can defeat (twice in CI rehearsals), so `Tests/run` runs it on its own after the suite
/// (`KINDRED_TEST_ISOLATED=1`); it is skipped inside the parallel run.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["KINDRED_TEST_ISOLATED"] == "1"))
struct HandshakeDeadlineTests {
    /// More ready sockets than one wake-up of the loop returns.
    static let clients = 600
    static let deadline = Duration.seconds(1)

    @Test func clientWhoseHandshakeWaitsUnreadOnABusyLoopIsNotClosed() async throws {
        try await withServer(
            [TestService(probe: Probe())],
            configure: {
                $0.eventLoopCount = 1
                $0.handshakeTimeout = Self.deadline
            }
        ) { server in
            // The clients wait in the listen backlog while the loop is held, then it accepts them in one go,
            // whatever the rest of the suite does to the cores: their deadlines start together.
            let hold = BusyLoop()
            server.loops[0].execute {
                hold.busy.store(true, ordering: .releasing)
                while !hold.answered.load(ordering: .acquiring) { usleep(1000) }
            }
            try await waitUntil("the loop held") { hold.busy.load(ordering: .acquiring) }
            let sockets = try (0..<Self.clients).map { _ in try Loopback.connect(port: server.port) }
            defer { sockets.forEach { close($0) } }
            hold.answered.store(true, ordering: .releasing)
            try await waitUntil("every client accepted") { server.core.openConnections == Self.clients }
            let loop = BusyLoop()
            // The loop is busy from now until every connection's deadline has passed, as under a burst of
            // handshakes; the clients answer meanwhile.
            server.loops[0].execute {
                let until = monotonicNanos() + UInt64(Self.deadline / .nanoseconds(1))
                loop.busy.store(true, ordering: .releasing)
                while !loop.answered.load(ordering: .acquiring) || monotonicNanos() < until { usleep(1000) }
            }
            try await waitUntil("the loop busy") { loop.busy.load(ordering: .acquiring) }
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

/// Yields until `condition` holds; a failure naming `what` after 60 s, rather than a test that spins forever.
private func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
    let limit = ContinuousClock.now + .seconds(60)
    while !condition() {
        guard ContinuousClock.now < limit else { throw TestFailure("gave up waiting for \(what)") }
        await Task.yield()
    }
}

private final class BusyLoop: Sendable {
    let busy = Atomic<Bool>(false)
    let answered = Atomic<Bool>(false)
}
