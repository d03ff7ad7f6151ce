/// Runs blocking work (Argon2id, file reads, writes and fsync) on at most `limit` dedicated threads, never on
/// Swift's cooperative pool or an event loop. Threads start when work arrives; once the queue is empty each waits
/// `linger` for more before it ends, so a steady trickle of work (the gallery's photo reads and writes, ~130 a
/// second in family at 1,000 calls/s) reuses them instead of starting and ending a thread per job, and an idle
/// process holds none. At most `maxQueued` jobs wait; beyond that `run` refuses at once.
public final class BlockingThreadPool: @unchecked Sendable {
    /// `run` refused: `maxQueued` jobs were already waiting.
    public struct Busy: Error, Equatable {}

    private struct State {
        var queue: [@Sendable () -> Void] = []
        var head = 0
        var threads = 0
        /// Threads waiting for a job (signalled ones included until they wake).
        var idle = 0

        var waiting: Int { queue.count - head }

        mutating func takeNext() -> (@Sendable () -> Void)? {
            guard head < queue.count else {
                queue.removeAll(keepingCapacity: true)
                head = 0
                return nil
            }
            defer { head += 1 }
            return queue[head]
        }
    }

    // `state` is only touched holding `lock` (hence unchecked Sendable).
    private let lock = ConditionLock()
    private var state = State()
    private let name: String
    private let limit: Int
    private let maxQueued: Int
    private let lingerNanos: UInt64

    /// A pool of at most `limit` threads called `name` with at most `maxQueued` jobs waiting for one; a thread
    /// with nothing to do ends after `linger`.
    public init(name: String, limit: Int, maxQueued: Int, linger: Duration = .seconds(5)) {
        precondition(limit >= 1, "a pool needs at least one thread")
        self.name = name
        self.limit = limit
        self.maxQueued = maxQueued
        let (seconds, attoseconds) = linger.components
        lingerNanos = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }

    /// How many threads the pool holds now, working or waiting for work.
    var threadCount: Int { lock.withLock { state.threads } }

    /// How many pieces of work wait for a thread.
    var queuedCount: Int { lock.withLock { state.waiting } }

    /// Runs `work` on one of the threads and returns its result.
    public func run<Output: Sendable>(_ work: @escaping @Sendable () -> Output) async throws(Busy) -> Output {
        let result: Result<Output, Busy> = await withCheckedContinuation { continuation in
            let startThread = lock.withLock { () -> Bool? in
                guard state.waiting < maxQueued else { return nil }
                state.queue.append { continuation.resume(returning: .success(work())) }
                if state.idle > 0 { lock.signal() }
                // A thread of its own when the waiting ones cannot take every job queued.
                guard state.waiting > state.idle, state.threads < limit else { return false }
                state.threads += 1
                return true
            }
            switch startThread {
            case nil: continuation.resume(returning: .failure(Busy()))
            case true?: spawnThread()
            case false?: break
            }
        }
        return try result.get()
    }

    private func spawnThread() {
        do {
            try DetachedThread.start(name: name) { self.serve() }
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// The body of each thread: jobs while there are any, then waiting up to `linger` for the next one.
    private func serve() {
        lock.lock()
        var idleUntil: UInt64?
        while true {
            if let job = state.takeNext() {
                idleUntil = nil
                lock.unlock()
                job()
                lock.lock()
                continue
            }
            let deadline = idleUntil ?? ConditionLock.monotonicNanos() &+ lingerNanos
            idleUntil = deadline
            state.idle += 1
            let woken = lock.wait(untilMonotonicNanos: deadline)
            state.idle -= 1
            if !woken, state.waiting == 0 { break }
        }
        state.threads -= 1
        lock.unlock()
    }
}
