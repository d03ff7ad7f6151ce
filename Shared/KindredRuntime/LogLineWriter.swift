import KindredThreads
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Standard error as the logs reach it: a line is appended to a bounded buffer and a thread of its own
/// writes the buffer out, so a thread that logs (an event loop writing a call's access line) never waits on
/// a pipe or a disk. Past `limit` bytes waiting, lines are dropped and counted, and the count is written
/// once the writer catches up: a stalled log reader slows nothing down. Flushed at `exit`.
final class LogLineWriter: Sendable {
    static let standardError = LogLineWriter(fd: 2, limit: 8 << 20)

    private struct State {
        var pending: [UInt8] = []
        var dropped = 0
        /// The writer holds a batch: it looks at `pending` again before it sleeps, so no wake-up is needed.
        var writing = false
        var started = false
    }

    private let fd: Int32
    private let limit: Int
    private let state = Mutex(State())
    // A semaphore, not a Mutex's condition: posted only when the writer sleeps, at most once per batch.
    private nonisolated(unsafe) let wake: UnsafeMutablePointer<sem_t>

    init(fd: Int32, limit: Int) {
        self.fd = fd
        self.limit = limit
        wake = .allocate(capacity: 1)
        sem_init(wake, 0, 0)
    }

    /// Queues one line (already ending in a newline); never blocks on I/O.
    func append(_ line: String) {
        let (wakeWriter, start) = state.withLock { state -> (Bool, Bool) in
            guard state.pending.count + line.utf8.count <= limit else {
                state.dropped += 1
                return (false, false)
            }
            let idle = !state.writing && state.pending.isEmpty
            state.pending.append(contentsOf: line.utf8)
            defer { state.started = true }
            return (idle, !state.started)
        }
        if start { startWriter() }
        if wakeWriter { sem_post(wake) }
    }

    /// Waits (up to a second) until every line queued so far is written: at exit, so the last lines survive.
    func flush() {
        for _ in 0..<1_000 {
            if state.withLock({ $0.pending.isEmpty && !$0.writing }) { return }
            usleep(1_000)
        }
    }

    private func startWriter() {
        atexit { LogLineWriter.standardError.flush() }
        do {
            try DetachedThread.start { [self] in run() }
        } catch {
            // No thread for the log: write this process's lines in place rather than lose them.
            writeAll(Array("{\"level\":\"error\",\"message\":\"no log writer thread: \(error)\"}\n".utf8))
        }
    }

    private func run() {
        var batch: [UInt8] = []
        while true {
            while sem_wait(wake) != 0 {}  // EINTR
            while let dropped = take(into: &batch) {
                writeAll(batch)
                batch.removeAll(keepingCapacity: batch.capacity <= 1 << 20)
                if dropped > 0 { writeAll(Array(Self.droppedLine(dropped).utf8)) }
            }
        }
    }

    /// Swaps the queued lines into `batch`; nil (and the writer asleep) when there are none.
    private func take(into batch: inout [UInt8]) -> Int? {
        state.withLock { state in
            guard !state.pending.isEmpty else {
                state.writing = false
                return nil
            }
            swap(&batch, &state.pending)
            state.writing = true
            defer { state.dropped = 0 }
            return state.dropped
        }
    }

    private func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                offset += written
            }
        }
    }

    static func droppedLine(_ count: Int) -> String {
        "{\"time\":\"\(UTCTimestamp.now())\",\"level\":\"warning\",\"logger\":\"kindred.log\","
            + "\"message\":\"log lines dropped: standard error did not keep up\",\"dropped\":\"\(count)\"}\n"
    }
}
