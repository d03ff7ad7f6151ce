import KindredThreads
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The log as it leaves the process, on standard error or in a file that rotates (`RotatingLogFile`): a line
/// is appended to a bounded buffer and a thread of its own writes the buffer out, so a thread that logs (an
/// event loop writing a call's access line) never waits on a pipe or a disk. Past `limit` bytes waiting,
/// lines are dropped and counted, and the count is written once the writer catches up: a stalled log reader
/// slows nothing down. Flushed at `exit`.
public final class LogLineWriter: Sendable {
    /// Standard error: what systemd's journal and Kubernetes collect, and bound, themselves.
    public static let standardError = LogLineWriter(destination: .descriptor(2))

    /// Where the bytes go.
    enum Destination: Sendable {
        /// A descriptor the writer does not own.
        case descriptor(Int32)
        case file(RotatingLogFile)
    }

    private struct State {
        var pending: [UInt8] = []
        var dropped = 0
        /// The writer waits for a wake-up with nothing to write; the next line must wake it.
        var asleep = false
        /// The pending bytes passed `urgentBytes` and the writer was woken for them.
        var urged = false
        var writing = false
        var started = false
    }

    private let destination: Destination
    private let limit: Int
    private let state = Mutex(State())
    // A semaphore, not a wake-up per line: the writer gathers lines for `gathering` after each write, and
    // is woken early only past `urgentBytes`. Measured: a wake-up per line cost the event loop more than the
    // line itself (a context switch per call).
    private nonisolated(unsafe) let wake: UnsafeMutablePointer<sem_t>
    private static let gathering = timespec(tv_sec: 0, tv_nsec: 20_000_000)
    private static let urgentBytes = 256 << 10

    init(destination: Destination, limit: Int = 8 << 20) {
        self.destination = destination
        self.limit = limit
        wake = .allocate(capacity: 1)
        sem_init(wake, 0, 0)
    }

    /// A writer into the file at `path` (created if missing, appended to), which it renames to `path.1` once
    /// it holds `maxBytes`, keeping `keep` such files (`path.1` the newest): a log never fills a disk.
    public static func rotatingFile(path: String, maxBytes: Int, keep: Int) throws(RotatingLogFile.OpenError)
        -> LogLineWriter
    {
        LogLineWriter(destination: .file(try RotatingLogFile(path: path, maxBytes: maxBytes, keep: keep)))
    }

    /// Queues one line (already ending in a newline); never blocks on I/O.
    func append(_ line: [UInt8]) {
        let (wakeWriter, start) = state.withLock { state -> (Bool, Bool) in
            guard state.pending.count + line.count <= limit else {
                state.dropped += 1
                return (false, false)
            }
            state.pending.append(contentsOf: line)
            defer { state.started = true }
            var wakeWriter = false
            if state.asleep {
                state.asleep = false
                wakeWriter = true
            } else if !state.urged && state.pending.count >= Self.urgentBytes {
                state.urged = true
                wakeWriter = true
            }
            return (wakeWriter, !state.started)
        }
        if start { startWriter() }
        if wakeWriter { sem_post(wake) }
    }

    /// Waits (up to a second) until every line queued so far is written: at exit, so the last lines survive.
    public func flush() {
        for _ in 0..<1_000 {
            if state.withLock({ $0.pending.isEmpty && !$0.writing }) { return }
            sem_post(wake)
            usleep(1_000)
        }
    }

    private static let started = Mutex<[LogLineWriter]>([])

    /// Flushes every writer this process started: at exit, whichever way it ends.
    public static func flushAll() {
        started.withLock { $0 }.forEach { $0.flush() }
    }

    private func startWriter() {
        Self.started.withLock { writers in
            if writers.isEmpty { atexit { LogLineWriter.flushAll() } }
            writers.append(self)
        }
        do {
            try DetachedThread.start(name: "log-writer") { [self] in run() }
        } catch {
            // No thread for the log: write this process's lines in place rather than lose them.
            writeAll(Array("{\"level\":\"error\",\"message\":\"no log writer thread: \(error)\"}\n".utf8))
        }
    }

    private func run() {
        var batch: [UInt8] = []
        while true {
            guard let dropped = take(into: &batch) else {
                while sem_wait(wake) != 0 {}  // EINTR
                continue
            }
            writeAll(batch)
            batch.removeAll(keepingCapacity: batch.capacity <= 1 << 20)
            if dropped > 0 { writeAll(Self.droppedLine(dropped)) }
            state.withLock { $0.writing = false }
            var deadline = timespec()
            clock_gettime(CLOCK_REALTIME, &deadline)
            deadline.tv_nsec += Self.gathering.tv_nsec
            if deadline.tv_nsec >= 1_000_000_000 {
                deadline.tv_sec += 1
                deadline.tv_nsec -= 1_000_000_000
            }
            _ = sem_timedwait(wake, &deadline)
        }
    }

    /// Swaps the queued lines into `batch`, returning how many were dropped meanwhile; nil, with the writer
    /// marked asleep, when there are none.
    private func take(into batch: inout [UInt8]) -> Int? {
        state.withLock { state in
            guard !state.pending.isEmpty else {
                state.asleep = true
                return nil
            }
            swap(&batch, &state.pending)
            state.writing = true
            state.urged = false
            defer { state.dropped = 0 }
            return state.dropped
        }
    }

    private func writeAll(_ bytes: [UInt8]) {
        switch destination {
        case .descriptor(let fd): bytes.withUnsafeBytes { Self.writeAll($0, to: fd) }
        case .file(let file): file.write(bytes)
        }
    }

    /// Writes every byte unless the descriptor fails (EINTR retried).
    static func writeAll(_ buffer: UnsafeRawBufferPointer, to fd: Int32) {
        var offset = 0
        while offset < buffer.count {
            let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }

    static func droppedLine(_ count: Int) -> [UInt8] {
        let line =
            #"{"time":"\#(UTCTimestamp.now())","level":"warning","logger":"kindred.log","#
            + #""message":"log lines dropped: the log did not keep up","dropped":"\#(count)"}"# + "\n"
        return Array(line.utf8)
    }
}
