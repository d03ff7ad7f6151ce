import Foundation
import Synchronization
import Testing

@testable import KindredThreads

/// KindredThreads' pool for blocking work (the gallery's files, Argon2id, the name resolver): threads are kept
/// for the next job while work keeps coming, as many run as the jobs need up to the limit, and an idle pool
/// ends its threads.
@Suite struct BlockingThreadPoolTests {
    /// A mark per thread that asks: the same number for every job of one thread, a new one on a new thread
    /// (a thread-specific value starts empty on every thread, even one that reuses an ended thread's stack).
    final class ThreadMarks: Sendable {
        private let key: pthread_key_t
        private let next = Atomic(1)

        init() {
            var key = pthread_key_t()
            pthread_key_create(&key, nil)
            self.key = key
        }

        deinit { pthread_key_delete(key) }

        func mark() -> Int {
            if let existing = pthread_getspecific(key) { return Int(bitPattern: existing) }
            let mark = next.add(1, ordering: .relaxed).oldValue
            pthread_setspecific(key, UnsafeRawPointer(bitPattern: mark))
            return mark
        }
    }

    /// What the jobs of a test share across threads.
    final class Board: Sendable {
        let arrived = Atomic(0)
        let released = Atomic(false)
    }

    @Test func jobsOneAfterAnotherReuseTheirThreadsWhichEndOnceIdleForTheirLinger() async throws {
        let pool = BlockingThreadPool(name: "test-pool", limit: 4, maxQueued: 16, linger: .seconds(2))
        let marks = ThreadMarks()
        var seen: Set<Int> = []
        for _ in 0..<20 {
            seen.insert(try await pool.run { marks.mark() })
        }
        // Usually one thread; more when a job is queued while the threads that resumed earlier callers have not
        // yet gone back to waiting (a busy machine), never more than the limit. A thread per job would make 20.
        #expect(seen.count <= 4)
        #expect(pool.threadCount <= 4)
        let ended = ContinuousClock.now + .seconds(30)
        while pool.threadCount > 0, ContinuousClock.now < ended {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(pool.threadCount == 0)
        // After the linger a job starts a thread again.
        #expect(try await !seen.contains(pool.run { marks.mark() }))
    }

    /// A pool's threads carry its name, so `top -H`, `perf` and `/proc/PID/task/*/comm` tell them from the event
    /// loop that started them (whose name they took before).
    @Test func itsThreadsCarryThePoolsName() async throws {
        let pool = BlockingThreadPool(name: "photo-files", limit: 1, maxQueued: 1)
        #expect(try await pool.run { currentThreadName() } == "photo-files")
    }

    /// Jobs that wait for each other finish only if each has a thread: a thread left waiting from earlier work
    /// takes one, and new threads start for the rest, up to the limit.
    @Test func jobsThatNeedEachOtherGetAThreadEachUpToTheLimit() async throws {
        let pool = BlockingThreadPool(name: "test-pool", limit: 3, maxQueued: 16, linger: .seconds(30))
        _ = try await pool.run { 0 }
        let board = Board()
        let allMet = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    try await pool.run {
                        board.arrived.add(1, ordering: .relaxed)
                        let giveUp = ContinuousClock.now + .seconds(10)
                        while board.arrived.load(ordering: .relaxed) < 3, ContinuousClock.now < giveUp {
                            usleep(1_000)
                        }
                        return board.arrived.load(ordering: .relaxed) == 3
                    }
                }
            }
            return try await group.reduce(true) { $0 && $1 }
        }
        #expect(allMet)
        #expect(pool.threadCount == 3)
    }

    @Test func aJobPastTheQueueIsRefusedAtOnce() async throws {
        let pool = BlockingThreadPool(name: "test-pool", limit: 1, maxQueued: 1, linger: .seconds(30))
        let board = Board()
        let holder = Task {
            try await pool.run {
                while !board.released.load(ordering: .relaxed) { usleep(1_000) }
                return 1
            }
        }
        while pool.threadCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(50))
        let queued = Task { try await pool.run { 2 } }
        try await Task.sleep(for: .milliseconds(50))
        await #expect(throws: BlockingThreadPool.Busy.self) { try await pool.run { 3 } }
        board.released.store(true, ordering: .relaxed)
        #expect(try await holder.value == 1)
        #expect(try await queued.value == 2)
    }
}

/// The calling thread's name as the kernel keeps it.
func currentThreadName() -> String? {
    (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?
        .trimmingCharacters(in: .newlines)
}
