#if canImport(Glibc)
import Glibc
#endif

/// A pthread mutex with its condition variable, for threads that must sleep until told (Swift's `Mutex` has no
/// condition). The condition's clock is the monotonic one, so a wait's deadline does not move with the wall clock.
final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }

    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock()
        defer { unlock() }
        return try body()
    }

    /// Wakes one thread waiting in `wait(untilMonotonicNanos:)`, if any. Call it holding the lock.
    func signal() { pthread_cond_signal(condition) }

    /// Releases the lock until signalled or until the monotonic clock reads `deadline` (nanoseconds), then holds
    /// it again; false once the deadline has passed. Call it holding the lock; it may also return early for
    /// nothing (a spurious wakeup), so check what was waited for again.
    func wait(untilMonotonicNanos deadline: UInt64) -> Bool {
        var time = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        return pthread_cond_timedwait(condition, mutex, &time) != ETIMEDOUT
    }

    /// The monotonic clock, in nanoseconds: the clock of `wait(untilMonotonicNanos:)`.
    static func monotonicNanos() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
