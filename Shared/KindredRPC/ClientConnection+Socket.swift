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
}

/// The pending error of a socket whose non-blocking connect finished; 0 when it connected.
func socketError(_ fd: Int32) -> Int32 {
    var error: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
    return error
}
