#if canImport(Glibc)
import Glibc
#endif

/// sd_notify(3) without libsystemd: under a `Type=notify` unit systemd names a unix datagram socket in
/// `NOTIFY_SOCKET`, and one datagram of `KEY=VALUE` lines tells it the service's state (`READY=1` once it
/// serves, `STOPPING=1` when the drain begins). Without the variable every notification is a no-op.
struct SystemdNotifier: Sendable {
    /// The socket's path; a leading `@` names one in the abstract namespace.
    let socketPath: String?

    init(socketPath: String?) {
        self.socketPath = socketPath
    }

    init(environment: [String: String]) {
        self.init(socketPath: environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 })
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends `state` (e.g. `READY=1`) as one datagram.
    func notify(_ state: String) throws(Failure) {
        guard let socketPath else { return }
        var address = try Self.address(socketPath)
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        defer { close(fd) }
        // An abstract name is exactly its bytes; a path's length counts its terminating NUL.
        let nameLength = socketPath.utf8.count + (socketPath.hasPrefix("@") ? 0 : 1)
        let length = socklen_t(MemoryLayout<sa_family_t>.size + nameLength)
        var message = state
        let sent = message.withUTF8 { bytes in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, length)
                }
            }
        }
        guard sent == state.utf8.count else {
            throw Failure(description: "sendto \(socketPath): errno \(errno)")
        }
    }

    private static func address(_ path: String) throws(Failure) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw Failure(description: "NOTIFY_SOCKET is not a usable socket path")
        }
        if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return address
    }
}
