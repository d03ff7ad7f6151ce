internal import Glibc

/// Runs blocking work (sockets, fsync) on a thread of its own, so it never holds one of Swift's
/// cooperative threads or an RPC event loop. Mail is rare, so a new thread per delivery costs nothing
/// that matters and needs no pool to manage.
enum BlockingThread {
    /// Starts a detached thread for `work` and returns its result; a thread that cannot be started is a
    /// temporary failure.
    static func run<Value: Sendable>(
        _ work: @escaping @Sendable () throws(MailTransportError) -> Value
    ) async throws(MailTransportError) -> Value {
        let result: Result<Value, MailTransportError> = await withCheckedContinuation { continuation in
            let status = start { continuation.resume(returning: Result(catching: work)) }
            if status != 0 {
                continuation.resume(
                    returning: .failure(.temporary("cannot start a delivery thread: \(status)")))
            }
        }
        return try result.get()
    }

    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Returns pthread_create's status: 0 when the thread runs `body`.
    private static func start(_ body: @escaping @Sendable () -> Void) -> Int32 {
        let box = Unmanaged.passRetained(Body(body))
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
            return status
        }
        pthread_detach(thread)
        return 0
    }
}
