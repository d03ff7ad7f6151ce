#if canImport(Glibc)
import Glibc
#endif
internal import CLinuxSystem

/// The one listening socket of a server (no SO_REUSEPORT, so a second process on the port fails).
struct ListeningSocket {
    let fd: Int32
    let port: Int

    init(host: String, port: Int, backlog: Int) throws(SystemCallError) {
        var storage = sockaddr_storage()
        let length = try Self.address(host: host, port: port, into: &storage)
        let fd = socket(
            Int32(storage.ss_family),
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
                | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError("socket") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, Int32(backlog)) == 0 else {
            let error = SystemCallError("bind \(host):\(port)")
            close(fd)
            throw error
        }
        self.fd = fd
        self.port = Self.localPort(fd) ?? port
    }

    private static func address(host: String, port: Int, into storage: inout sockaddr_storage)
        throws(SystemCallError) -> socklen_t
    {
        let host = host == "localhost" ? "127.0.0.1" : host
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeBytes(of: v4) { bytes in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) }
            }
            return socklen_t(MemoryLayout<sockaddr_in>.size)
        }
        var v6 = sockaddr_in6()
        guard inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 else {
            throw SystemCallError("parse address \(host)", errno: EINVAL)
        }
        v6.sin6_family = sa_family_t(AF_INET6)
        v6.sin6_port = in_port_t(UInt16(port).bigEndian)
        withUnsafeBytes(of: v6) { bytes in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) }
        }
        return socklen_t(MemoryLayout<sockaddr_in6>.size)
    }

    private static func localPort(_ fd: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard status == 0 else { return nil }
        return describe(storage).port
    }

    /// Accepts one pending connection, non-blocking with TCP_NODELAY; nil when none is pending (or on error).
    func accept() -> (fd: Int32, peer: String)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let client = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                // Non-blocking and close-on-exec from the start: one call instead of four, and no moment in
                // which a child spawned by another thread inherits the socket.
                let flags = Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
                return accept4(fd, $0, &length, flags)
            }
        }
        guard client >= 0 else { return nil }
        var one: Int32 = 1
        setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let (address, port) = Self.describe(storage)
        return (client, "\(address):\(port)")
    }

    /// `ipv4:1.2.3.4` or `ipv6:[::1]`, and the port.
    static func describe(_ storage: sockaddr_storage) -> (address: String, port: Int) {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        var storage = storage
        if Int32(storage.ss_family) == AF_INET6 {
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                    var address = v6.pointee.sin6_addr
                    inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
                    return ("ipv6:[\(terminated(text))]", Int(UInt16(bigEndian: v6.pointee.sin6_port)))
                }
            }
        }
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                var address = v4.pointee.sin_addr
                inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
                return ("ipv4:\(terminated(text))", Int(UInt16(bigEndian: v4.pointee.sin_port)))
            }
        }
    }

    private static func terminated(_ text: [CChar]) -> String {
        String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
