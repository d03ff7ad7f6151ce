import Foundation
import KindredTestSupport
import Testing

@testable import KindredRPC

/// What an accepted connection's socket is from the start: non-blocking, for the event loop, and closed on
/// exec, so that no child process (a test's openssl, a PostgreSQL a test starts) keeps a copy of it open.
@Suite struct ListeningSocketTests {
    @Test func anAcceptedSocketIsNonBlockingAndClosedOnExec() throws {
        let listener = try ListeningSocket(host: "127.0.0.1", port: 0, backlog: 4)
        defer { close(listener.fd) }
        let client = try Loopback.connect(port: listener.port)
        defer { close(client) }
        let accepted = try #require(listener.accept())
        defer { close(accepted.fd) }
        #expect(fcntl(accepted.fd, F_GETFL) & O_NONBLOCK != 0)
        #expect(fcntl(accepted.fd, F_GETFD) & FD_CLOEXEC != 0)
        #expect(accepted.peer.hasPrefix("ipv4:127.0.0.1:"))
    }
}
