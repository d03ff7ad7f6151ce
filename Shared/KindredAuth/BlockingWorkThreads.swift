internal import DequeModule
internal import KindredThreads
import Synchronization

/// Runs CPU-heavy blocking work (Argon2id) on at most `limit` dedicated threads, never on Swift's cooperative
/// pool or an event loop. Threads start when work arrives and end when the queue is empty, so an idle
/// process holds none; at most `maxQueued` jobs wait, beyond that `run` refuses at once.
final class BlockingWorkThreads: Sendable {
    private struct State {
        var queue = Deque<@Sendable () -> Void>()
        var threads = 0

        var waiting: Int { queue.count }

        mutating func takeNext() -> (@Sendable () -> Void)? { queue.popFirst() }
    }

    private let state = Mutex(State())
    private let limit: Int
    private let maxQueued: Int

    init(limit: Int, maxQueued: Int) {
        self.limit = limit
        self.maxQueued = maxQueued
    }

    /// Runs `work` on one of the threads and returns its result.
    func run<Output: Sendable>(
        _ work: @escaping @Sendable () -> Output
    ) async throws(PasswordHasherError) -> Output {
        let result: Result<Output, PasswordHasherError> = await withCheckedContinuation { continuation in
            let startThread = state.withLock { state -> Bool? in
                guard state.waiting < maxQueued else { return nil }
                state.queue.append { continuation.resume(returning: .success(work())) }
                guard state.threads < limit else { return false }
                state.threads += 1
                return true
            }
            switch startThread {
            case nil: continuation.resume(returning: .failure(.busy))
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
