internal import CLinuxSystem
internal import Glibc
internal import KindredThreads

/// A connection thread's wake-up line: an eventfd the thread polls beside its connection's socket.
final class PostgresWorker: Sendable {
    let index: Int
    private let wakeDescriptor: Int32

    init(index: Int) {
        self.index = index
        self.wakeDescriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        precondition(wakeDescriptor >= 0, "eventfd failed: errno \(errno)")
    }

    deinit { close(wakeDescriptor) }

    func wake() {
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
    }

    /// Blocks the calling (connection) thread until woken, until `socket` is readable, or for `timeout`.
    /// Returns true if the socket is readable.
    func wait(socket: Int32?, timeout: Duration?) -> Bool {
        var descriptors = [pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        if let socket { descriptors.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
        let milliseconds =
            timeout.map {
                Int32($0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000)
            } ?? -1
        let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        guard ready > 0 else { return false }
        if descriptors[0].revents != 0 {
            var counter: UInt64 = 0
            _ = read(wakeDescriptor, &counter, 8)
        }
        return descriptors.count > 1 && descriptors[1].revents != 0
    }

    /// Runs `body` on a new detached thread called `name`: connection threads block in libpq, never on
    /// Swift's pool.
    static func startThread(name: String, _ body: @escaping @Sendable () -> Void) {
        do {
            try DetachedThread.start(name: name, body)
        } catch {
            preconditionFailure("\(error)")
        }
    }
}
