#if canImport(Glibc)
import Glibc
#endif
internal import CLinuxSystem

/// One socket address a target's name resolved to (IPv4 or IPv6, with the port): what a client connects to.
public struct ResolvedAddress: Sendable, Hashable, CustomStringConvertible {
    /// The `sockaddr_in` or `sockaddr_in6`, byte for byte.
    let socketAddress: [UInt8]

    /// Copies the address getaddrinfo answered.
    init(_ address: UnsafePointer<sockaddr>, length: socklen_t) {
        socketAddress = Array(UnsafeRawBufferPointer(start: address, count: Int(length)))
    }

    /// An IPv4 or IPv6 literal (`127.0.0.2`, `::1`) with a port; nil when `host` is not a literal.
    public init?(numericHost host: String, port: UInt16) {
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            socketAddress = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = sockaddr_in6()
        guard inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 else { return nil }
        v6.sin6_family = sa_family_t(AF_INET6)
        v6.sin6_port = port.bigEndian
        socketAddress = withUnsafeBytes(of: &v6) { Array($0) }
    }

    var family: Int32 {
        socketAddress.withUnsafeBytes { Int32($0.loadUnaligned(as: sa_family_t.self)) }
    }

    /// `127.0.0.2:50051` or `[::1]:50051`.
    public var description: String {
        socketAddress.withUnsafeBytes { raw -> String in
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            if family == AF_INET6 {
                var address = raw.loadUnaligned(as: sockaddr_in6.self)
                inet_ntop(AF_INET6, &address.sin6_addr, &text, socklen_t(text.count))
                return "[\(String(cString: text))]:\(UInt16(bigEndian: address.sin6_port))"
            }
            var address = raw.loadUnaligned(as: sockaddr_in.self)
            inet_ntop(AF_INET, &address.sin_addr, &text, socklen_t(text.count))
            return "\(String(cString: text)):\(UInt16(bigEndian: address.sin_port))"
        }
    }

    /// Starts a non-blocking TCP connect to this address. Returns the socket and whether the connect already
    /// completed; throws UNAVAILABLE when it failed at once (ECONNREFUSED on loopback, say).
    func startConnect() throws(RPCError) -> (fd: Int32, connected: Bool) {
        let fd = socket(
            family,
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw connectError(errno) }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let result = socketAddress.withUnsafeBytes {
            connect(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
        }
        if result == 0 { return (fd, true) }
        let error = errno
        if error == EINPROGRESS { return (fd, false) }
        close(fd)
        throw connectError(error)
    }

    private func connectError(_ code: Int32) -> RPCError {
        RPCError(.unavailable, "connect to \(self): \(String(cString: strerror(code)))")
    }
}
