import Synchronization

/// Runs blocking work (Argon2id, file writes and fsync) on at most `limit` dedicated threads, never on Swift's
/// cooperative pool or an event loop. Threads start when work arrives and end when the queue is empty, so an
/// idle process holds none; at most `maxQueued` jobs wait, beyond that `run` refuses at once.
public final class BlockingThreadPool: Sendable {
    /// `run` refused: `maxQueued` jobs were already waiting.
    public struct Busy: Error, Equatable {}

    private struct State {
        var queue: [@Sendable () -> Void] = []
        var head = 0
        var threads = 0

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

    private let state = Mutex(State())
    private let limit: Int
    private let maxQueued: Int

    /// A pool of at most `limit` threads with at most `maxQueued` jobs waiting for one.
    public init(limit: Int, maxQueued: Int) {
        precondition(limit >= 1, "a pool needs at least one thread")
        self.limit = limit
        self.maxQueued = maxQueued
    }

    /// Runs `work` on one of the threads and returns its result.
    public func run<Output: Sendable>(_ work: @escaping @Sendable () -> Output) async throws(Busy) -> Output {
        let result: Result<Output, Busy> = await withCheckedContinuation { continuation in
            let startThread = state.withLock { state -> Bool? in
                guard state.waiting < maxQueued else { return nil }
                state.queue.append { continuation.resume(returning: .success(work())) }
                guard state.threads < limit else { return false }
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
            try DetachedThread.start { self.drain() }
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// The body of each thread: jobs until the queue is empty, then the thread ends.
    private func drain() {
        while let job = state.withLock({ state -> (@Sendable () -> Void)? in
            let job = state.takeNext()
            if job == nil { state.threads -= 1 }
            return job
        }) {
            job()
        }
    }
}
