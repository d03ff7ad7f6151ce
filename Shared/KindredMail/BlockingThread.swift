internal import KindredThreads

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
            do {
                try DetachedThread.start(name: "mail-delivery") {
                    continuation.resume(returning: Result(catching: work))
                }
            } catch {
                continuation.resume(
                    returning: .failure(.temporary("cannot start a delivery thread: \(error)")))
            }
        }
        return try result.get()
    }
}
