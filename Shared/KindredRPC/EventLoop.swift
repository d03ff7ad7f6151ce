#if canImport(Glibc)
import Glibc
#endif
internal import CLinuxSystem
import Synchronization

/// One epoll thread (public only so other modules can run sockets on it, see `EventLoop+Descriptors`): owns its connections, runs the handler tasks that prefer it, fires its timers and
/// flushes every connection that produced output once per iteration.
public final class EventLoop: @unchecked Sendable {
    // Everything below except `remote` is touched only on the loop thread (@unchecked Sendable).
    let index: Int
    /// What its thread is called (`rpc-loop-0`, `background-0`), named as `startThread` starts it: at most 15
    /// bytes are kept.
    let threadName: String
    let epollFD: Int32
    let wakeFD: Int32
    var thread = pthread_t()
    var now: UInt64 = monotonicNanos()
    var connections: [(any EventLoopChannel)?] = []
    var dirty: [any EventLoopChannel] = []
    /// Counts the loop's turns (one `epoll_wait` each); connections queued to read in the next one.
    var turn: UInt64 = 0
    var readsDue: [Connection] = []
    var localJobs: [UnownedJob] = []
    var runningJobs: [UnownedJob] = []
    var timers = TimerHeap()
    var stopping = false
    var onStop: (@Sendable () -> Void)?
    /// Accepts on this loop's thread when the listening socket is readable (only the accepting loop has one).
    var acceptor: Acceptor?
    var requestCounter: UInt64 = 0
    var connectionCount = 0
    var draining = false
    /// Server connections in accept order that may still be waiting for their handshake; read from
    /// `handshakeQueueHead` (see `Connection+Admission.swift`).
    var handshakeQueue: [Connection] = []
    /// The unary calls this loop runs at once (`ServerCall+Admission`), made on first use.
    var admission: AdmissionLimit?
    var handshakeQueueHead = 0
    /// Connections closed since the loop last gave freed memory back (see `trimMemoryAfterBurst`).
    var closedSinceTrim = 0
    let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 << 10, alignment: 16)
    let writeBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 << 10, alignment: 16)
    let remote = Mutex(RemoteQueue())

    static let wakeToken = UInt64.max
    static let listenToken = UInt64.max - 1

    init(index: Int, threadName: String) throws(SystemCallError) {
        self.index = index
        self.threadName = threadName
        epollFD = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epollFD >= 0 else { throw SystemCallError("epoll_create1") }
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wakeFD >= 0 else { throw SystemCallError("eventfd") }
        try register(fd: wakeFD, token: Self.wakeToken, events: EPOLLIN.rawValue)
    }

    deinit {
        close(epollFD)
        close(wakeFD)
        readBuffer.deallocate()
        writeBuffer.deallocate()
    }

    /// Whether the caller runs on this loop's thread.
    var inEventLoop: Bool { pthread_equal(pthread_self(), thread) != 0 }

    func register(fd: Int32, token: UInt64, events: UInt32) throws(SystemCallError) {
        var event = epoll_event(events: events, data: epoll_data_t(u64: token))
        guard epoll_ctl(epollFD, EPOLL_CTL_ADD, fd, &event) == 0 else {
            throw SystemCallError("epoll_ctl add")
        }
    }

    func modify(fd: Int32, events: UInt32) {
        var event = epoll_event(events: events, data: epoll_data_t(u64: UInt64(fd)))
        epoll_ctl(epollFD, EPOLL_CTL_MOD, fd, &event)
    }

    func unregister(fd: Int32) {
        epoll_ctl(epollFD, EPOLL_CTL_DEL, fd, nil)
    }

    /// Runs the loop on the calling thread until `stop()`.
    func run() {
        thread = pthread_self()
        var events = [epoll_event](repeating: epoll_event(), count: 512)
        while !stopping {
            let timeout =
                localJobs.isEmpty && readsDue.isEmpty ? timers.timeoutMillis(now: monotonicNanos()) : 0
            let count = events.withUnsafeMutableBufferPointer {
                epoll_wait(epollFD, $0.baseAddress, 512, timeout)
            }
            now = monotonicNanos()
            turn &+= 1
            for index in 0..<max(0, Int(count)) { dispatch(events[index]) }
            readDueConnections()
            fireDueTimers()
            runJobs()
            flushDirty()
        }
        runJobs()
        onStop?()
        onStop = nil
    }

    private func dispatch(_ event: epoll_event) {
        switch event.data.u64 {
        case Self.wakeToken: drainRemote()
        case Self.listenToken: acceptor?.acceptAll()
        case let token:
            let fd = Int(token)
            guard fd < connections.count, let connection = connections[fd] else { return }
            if event.events & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 {
                connection.readable()
            }
            if event.events & EPOLLOUT.rawValue != 0 { connection.writable() }
        }
    }

    /// Queues a connection for one flush at the end of this iteration.
    func markDirty(_ connection: any EventLoopChannel) {
        assertInLoop()
        guard !connection.isDirty else { return }
        connection.isDirty = true
        dirty.append(connection)
    }

    private func flushDirty() {
        var pass = 0
        while !dirty.isEmpty && pass < 4 {
            let batch = dirty
            dirty.removeAll(keepingCapacity: true)
            for connection in batch {
                connection.isDirty = false
                connection.flush()
            }
            pass += 1
        }
    }

    /// Adds a server connection: it is counted, so a draining loop waits for it.
    func add(_ connection: Connection) {
        assertInLoop()
        connectionCount += 1
        attach(connection)
    }

    func remove(_ connection: Connection) {
        assertInLoop()
        detach(connection)
        connectionCount -= 1
        closedSinceTrim += 1
    }

    /// Makes the loop dispatch a socket's readiness to `channel` and flush it when dirty.
    func attach(_ channel: any EventLoopChannel) {
        let fd = Int(channel.fd)
        if fd >= connections.count {
            connections.append(contentsOf: repeatElement(nil, count: fd + 1 - connections.count))
        }
        connections[fd] = channel
    }

    func detach(_ channel: any EventLoopChannel) {
        connections[Int(channel.fd)] = nil
    }

    /// Every live connection on this loop.
    var liveConnections: [Connection] { connections.compactMap { $0 as? Connection } }
}

/// A system call that failed while starting or running the server, with its errno.
public struct SystemCallError: Error, Sendable, CustomStringConvertible {
    /// What was attempted, e.g. `bind 0.0.0.0:50051`.
    public let call: String
    /// The errno it failed with, e.g. `EADDRINUSE`.
    public let errno: Int32

    init(_ call: String, errno: Int32 = Glibc.errno) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call): \(String(cString: strerror(errno)))" }
}

/// CLOCK_MONOTONIC in nanoseconds.
func monotonicNanos() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

extension Duration {
    /// Whole nanoseconds, saturating at zero.
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = components
        if seconds < 0 { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? UInt64.max / 2 : whole + UInt64(attoseconds / 1_000_000_000)
    }
}
