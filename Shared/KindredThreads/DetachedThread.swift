#if canImport(Glibc)
import Glibc
#endif
import CLinuxSystem

/// A plain detached pthread for work that blocks — libpq calls, Argon2id, mail sockets — so that it never
/// holds one of Swift's cooperative threads or an RPC event loop.
public enum DetachedThread {
    /// Why a thread could not be started: `pthread_create`'s status (EAGAIN when the system is out of threads).
    public struct StartFailure: Error, CustomStringConvertible {
        public let status: Int32
        public var description: String { "pthread_create failed: \(status)" }
    }

    /// Runs `body` on a new detached thread called `name` (its first 15 bytes), the name `top -H`, `perf`,
    /// `/proc/PID/task/*/comm` and backtraces show; unnamed, a thread would take its creator's name.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(StartFailure) {
        let box = Unmanaged.passRetained(Body(name: name, run: body))
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { raw in
                // Balances passRetained above: the thread owns the box until its body returns.
                Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
                return nil
            }, box.toOpaque())
        guard status == 0 else {
            box.release()
            throw StartFailure(status: status)
        }
        pthread_detach(thread)
    }

    /// Blocks the calling thread (one of these, never a cooperative or loop thread) for `duration`, through
    /// interrupted sleeps.
    public static func sleep(for duration: Duration) {
        var left = timespec(
            tv_sec: Int(duration.components.seconds),
            tv_nsec: Int(duration.components.attoseconds / 1_000_000_000))
        var rest = timespec()
        while nanosleep(&left, &rest) != 0 && errno == EINTR { left = rest }
    }

    private final class Body: Sendable {
        let name: String
        let work: @Sendable () -> Void
        init(name: String, run work: @escaping @Sendable () -> Void) {
            self.name = name
            self.work = work
        }

        /// Names the calling thread (the kernel keeps 15 bytes), then does the work.
        func run() {
            _ = CLinuxSystem_setThreadName(name)
            work()
        }
    }
}
