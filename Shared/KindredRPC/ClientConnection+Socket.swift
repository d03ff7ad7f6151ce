#if canImport(Glibc)
import Glibc
#endif

/// A `host:port` a client connects to.
struct ConnectTarget: Sendable, Hashable, CustomStringConvertible {
    let host: String
    let port: UInt16

    /// Parses `host:port` or `[v6]:port`; nil when malformed.
    init?(_ target: String) {
        guard let colon = target.lastIndex(of: ":"), let port = UInt16(target[target.index(after: colon)...])
        else {
            return nil
        }
        var host = String(target[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { return nil }
        self.host = host
        self.port = port
    }

    var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Starts a non-blocking TCP connect, trying the addresses the host resolves to in order until one
    /// does not fail at once (`localhost` may name ::1 first while the peer listens on 127.0.0.1 only).
    /// Returns the socket and whether the connect already completed.
    func startConnect() throws(RPCError) -> (fd: Int32, connected: Bool) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var results: UnsafeMutablePointer<addrinfo>?
        // getaddrinfo blocks on DNS; peers are named by IP or /etc/hosts names in every deployment we run.
        guard getaddrinfo(host, String(port), &hints, &results) == 0, results != nil else {
            throw RPCError(.unavailable, "cannot resolve \(host)")
        }
        defer { freeaddrinfo(results) }
        var lastError = ECONNREFUSED
        var address = results
        while let current = address {
            address = current.pointee.ai_next
            let fd = socket(
                current.pointee.ai_family,
                Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                lastError = errno
                continue
            }
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            if connect(fd, current.pointee.ai_addr, current.pointee.ai_addrlen) == 0 { return (fd, true) }
            lastError = errno
            if lastError == EINPROGRESS { return (fd, false) }
            close(fd)
        }
        throw RPCError(.unavailable, "connect to \(self): \(String(cString: strerror(lastError)))")
    }
}

/// The pending error of a socket whose non-blocking connect finished; 0 when it connected.
func socketError(_ fd: Int32) -> Int32 {
    var error: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
    return error
}
