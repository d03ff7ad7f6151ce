import Testing

@testable import KindredRuntime

#if canImport(Glibc)
import Glibc
#endif

/// What a `Type=notify` unit's systemd receives: one datagram per state, on the socket NOTIFY_SOCKET names.
@Suite struct SystemdNotifierTests {
    @Test func readyReachesASocketNamedByPath() throws {
        let path = "/tmp/kindred-notify-\(getpid())-path"
        let receiver = try DatagramReceiver(name: path)
        defer { receiver.close() }
        try SystemdNotifier(environment: ["NOTIFY_SOCKET": path]).notify("READY=1")
        #expect(receiver.next() == "READY=1")
    }

    @Test func stoppingReachesASocketInTheAbstractNamespace() throws {
        let name = "@kindred-notify-\(getpid())-abstract"
        let receiver = try DatagramReceiver(name: name)
        defer { receiver.close() }
        try SystemdNotifier(socketPath: name).notify("STOPPING=1")
        #expect(receiver.next() == "STOPPING=1")
    }

    @Test func aSocketThatIsNotThereIsAnError() {
        #expect(throws: SystemdNotifier.Failure.self) {
            try SystemdNotifier(socketPath: "/tmp/kindred-notify-\(getpid())-absent").notify("READY=1")
        }
    }

    @Test func livenessStaysServingWhileTheDatabaseTurnsTheRestNotServing() {
        let board = HealthStatusBoard()
        let served = StandardServices(board: board, services: [])
        served.markServing(true)
        served.markAlive()
        served.markServing(false)
        #expect(board.status(of: "") == .notServing)
        #expect(board.status(of: StandardServices.livenessName) == .serving)
        board.beginDrain()
        #expect(board.status(of: StandardServices.livenessName) == .notServing)
    }
}

/// A bound unix datagram socket standing in for systemd's notification socket.
private struct DatagramReceiver {
    let fd: Int32
    let path: String

    init(name: String) throws {
        path = name
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        if !name.hasPrefix("@") { unlink(name) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw BindFailure(errno: errno) }
    }

    struct BindFailure: Error {
        let errno: Int32
    }

    /// The datagram waiting, if any: the notifier's `sendto` queued it before returning.
    func next() -> String? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return count < 0 ? nil : String(decoding: buffer[..<count], as: UTF8.self)
    }

    func close() {
        Glibc.close(fd)
        if !path.hasPrefix("@") { unlink(path) }
    }
}
