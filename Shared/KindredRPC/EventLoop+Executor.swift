#if canImport(Glibc)
import Glibc
#endif

/// Jobs and closures handed to a loop from other threads; the loop drains them after an eventfd wake.
struct RemoteQueue: ~Copyable {
    var jobs: [UnownedJob] = []
    var closures: [@Sendable () -> Void] = []
    var wakePending = false
}

extension EventLoop: TaskExecutor {
    /// Runs a job on this loop: directly queued from the loop thread, through the locked queue otherwise.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if inEventLoop {
            localJobs.append(job)
            return
        }
        let wake = remote.withLock { queue in
            queue.jobs.append(job)
            defer { queue.wakePending = true }
            return !queue.wakePending
        }
        if wake { signalWake() }
    }

    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    /// Runs a closure on the loop thread (inline when already there).
    func execute(_ body: @escaping @Sendable () -> Void) {
        if inEventLoop {
            body()
            return
        }
        let wake = remote.withLock { queue in
            queue.closures.append(body)
            defer { queue.wakePending = true }
            return !queue.wakePending
        }
        if wake { signalWake() }
    }

    private func signalWake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    func drainRemote() {
        var counter: UInt64 = 0
        _ = read(wakeFD, &counter, 8)
        let (jobs, closures) = remote.withLock { queue in
            queue.wakePending = false
            defer {
                queue.jobs.removeAll()
                queue.closures.removeAll()
            }
            return (queue.jobs, queue.closures)
        }
        localJobs.append(contentsOf: jobs)
        for closure in closures { closure() }
    }

    /// Runs queued jobs; a job that keeps re-enqueueing itself yields to I/O after a few passes.
    func runJobs() {
        let executor = asUnownedTaskExecutor()
        var pass = 0
        while !localJobs.isEmpty && pass < 8 {
            swap(&localJobs, &runningJobs)
            for job in runningJobs { job.runSynchronously(on: executor) }
            runningJobs.removeAll(keepingCapacity: true)
            pass += 1
        }
    }
}
