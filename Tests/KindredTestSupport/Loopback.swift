import Glibc

/// TCP sockets on 127.0.0.1, for tests that play a server or a silent peer, call one, or need a port that
/// nobody uses.
public enum Loopback {
    public typealias BoundSocket = (socket: Int32, port: Int)

    /// A new socket bound to a port the kernel picks, listening when `backlog` is given; the caller closes it.
    public static func bind(listening backlog: Int32? = nil) throws -> BoundSocket {
        try bind(port: 0, listening: backlog)
    }

    /// A socket bound to loopback `port` (0: one the kernel picks) of `host` (any of 127/8), listening when
    /// `backlog` is given.
    public static func bind(host: String = "127.0.0.1", port: Int, listening backlog: Int32? = nil) throws
        -> BoundSocket
    {
        let socket = try newSocket()
        var address = address(host: host, port: port)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                Glibc.bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
                    && (backlog.map { listen(socket, $0) == 0 } ?? true)
            }
        }
        guard bound else { throw failure("cannot bind a loopback socket", closing: socket) }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A new socket connected to `port`; the caller closes it.
    public static func connect(port: Int) throws -> Int32 {
        let socket = try newSocket()
        var address = address(port: port)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { throw failure("cannot connect to 127.0.0.1:\(port)", closing: socket) }
        return socket
    }

    /// Whether something accepts connections on `port`.
    public static func accepts(_ port: Int) -> Bool {
        guard let socket = try? connect(port: port) else { return false }
        close(socket)
        return true
    }

    private static func newSocket() throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw TestFailure("cannot open a socket: errno \(errno)") }
        return socket
    }

    private static func address(host: String = "127.0.0.1", port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        return address
    }

    private static func failure(_ message: String, closing socket: Int32) -> TestFailure {
        let failure = TestFailure("\(message): errno \(errno)")
        close(socket)
        return failure
    }
}
