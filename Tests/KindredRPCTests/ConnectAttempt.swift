import Glibc
import KindredTestSupport

/// A non-blocking TCP connection attempt from a chosen local source address (any of 127.0.0.0/8, or ::1), for
/// tests of what a listener does with one address's connections and not another's. On loopback a handshake
/// the listener answers completes within microseconds; one whose SYN was dropped stays unconnected.
final class ConnectAttempt {
    let fd: Int32

    init(from source: String, toPort port: Int) throws {
        let v6 = source.contains(":")
        fd = socket(v6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("cannot open a socket: errno \(errno)") }
        let started = v6 ? Self.start(fd, v6: source, port: port) : Self.start(fd, v4: source, port: port)
        guard started else {
            let error = errno
            close(fd)
            throw TestFailure("cannot connect from \(source) to port \(port): errno \(error)")
        }
    }

    deinit { close(fd) }

    /// Whether the handshake has completed.
    var isConnected: Bool {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) == 0 }
        }
    }

    /// Waits up to five seconds for the handshake (an event, not a fixed delay); whether it completed.
    func waitConnected() -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        return poll(&entry, 1, 5_000) == 1 && isConnected
    }

    private static func start(_ fd: Int32, v4 source: String, port: Int) -> Bool {
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        var remote = local
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET, source, &local.sin_addr) == 1,
            inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr) == 1
        else { return false }
        return bindAndConnect(fd, local, remote)
    }

    private static func start(_ fd: Int32, v6 source: String, port: Int) -> Bool {
        var local = sockaddr_in6()
        local.sin6_family = sa_family_t(AF_INET6)
        var remote = local
        remote.sin6_port = in_port_t(UInt16(port).bigEndian)
        guard inet_pton(AF_INET6, source, &local.sin6_addr) == 1,
            inet_pton(AF_INET6, "::1", &remote.sin6_addr) == 1
        else { return false }
        return bindAndConnect(fd, local, remote)
    }

    private static func bindAndConnect<Address>(_ fd: Int32, _ local: Address, _ remote: Address) -> Bool {
        let length = socklen_t(MemoryLayout<Address>.size)
        let bound = withUnsafePointer(to: local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 }
        }
        let connecting = withUnsafePointer(to: remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
        }
        return bound && (connecting == 0 || errno == EINPROGRESS)
    }
}
