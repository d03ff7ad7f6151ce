extension EventLoop {
    /// Suspends the calling task until `deadline` on this loop's own timers; throws `CancellationError` at
    /// once when the task is cancelled. For a task that runs on this loop (it prefers the loop as its
    /// executor): `Task.sleep` there costs two thread wakeups a sleep (the dispatch timer thread, then the
    /// loop's eventfd), which a load generator sleeping between calls hundreds of times a second paid on every
    /// call (issue 27). The loop's timers are as precise as its `epoll_wait`, a millisecond: a sleep ends up to
    /// a millisecond after `deadline`, never before.
    public func sleep(until deadline: ContinuousClock.Instant) async throws(CancellationError) {
        precondition(inEventLoop, "EventLoop.sleep(until:) runs on its own loop only")
        let sleeper = LoopSleeper()
        let handle = LoopBound(sleeper, loop: self)
        await withTaskCancellationHandler {
            await withUnsafeContinuation { continuation in
                sleeper.start(continuation, on: self, after: ContinuousClock.now.duration(to: deadline))
            }
        } onCancel: {
            handle.loop.execute { handle.value.cancel(on: handle.loop) }
        }
        if sleeper.wasCancelled { throw CancellationError() }
    }
}

/// One sleep on a loop: its timer and its waiting task, touched only on the loop's thread. A cancellation that
/// comes first (the task was cancelled before it slept) leaves nothing to wait for.
private final class LoopSleeper {
    private var continuation: UnsafeContinuation<Void, Never>?
    private var timer: LoopTimer?
    private(set) var wasCancelled = false

    func start(_ continuation: UnsafeContinuation<Void, Never>, on loop: EventLoop, after delay: Duration) {
        guard !wasCancelled else { return continuation.resume() }
        self.continuation = continuation
        timer = loop.schedule(after: max(delay, .zero)) { [self] in wake() }
    }

    func cancel(on loop: EventLoop) {
        wasCancelled = true
        if let timer { loop.cancel(timer) }
        wake()
    }

    private func wake() {
        timer = nil
        continuation.take()?.resume()
    }
}
