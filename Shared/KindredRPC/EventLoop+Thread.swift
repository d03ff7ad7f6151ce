#if canImport(Glibc)
import Glibc
#endif
internal import KindredThreads

extension EventLoop {
    /// The loop running on the calling thread, if any: how a client call made from a handler finds
    /// the loop it already runs on.
    static var current: EventLoop? {
        guard let pointer = pthread_getspecific(currentLoopKey.key) else { return nil }
        return Unmanaged<EventLoop>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Runs the loop on a new detached thread, registered as that thread's `current` loop.
    func startThread() {
        do {
            try DetachedThread.start(name: threadName) { [self] in
                pthread_setspecific(currentLoopKey.key, Unmanaged.passUnretained(self).toOpaque())
                run()
                pthread_setspecific(currentLoopKey.key, nil)
            }
        } catch {
            preconditionFailure("\(error)")
        }
    }
}

/// The thread-specific slot behind `EventLoop.current`; created once, never deleted.
private struct CurrentLoopKey: @unchecked Sendable {
    // A pthread key is an integer fixed at creation: safe to read from any thread.
    let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "pthread_key_create failed")
        self.key = key
    }
}

private let currentLoopKey = CurrentLoopKey()
