/// An event loop the pool can run connections on, so a handler's statement is sent and its answer read
/// on the handler's own thread. KindredRuntime conforms KindredRPC's loops; this module does not depend on it.
/// Every method but `run` is called on the loop's own thread only.
public protocol PostgresIOLoop: AnyObject, Sendable {
    /// Runs `body` on the loop's thread: inline when already there, else at the loop's next wake-up.
    func run(_ body: @escaping @Sendable () -> Void)
    /// Starts reporting `fd`'s readiness to `handler` until `unwatch`.
    func watch(fd: Int32, handler: any PostgresIOHandler) throws
    /// Turns reporting of writability on or off.
    func setWritableInterest(fd: Int32, _ interested: Bool)
    /// Calls the handler's `flush` once at the end of the loop's current iteration.
    func flushSoon(fd: Int32)
    /// Stops watching `fd`; called before it is closed.
    func unwatch(fd: Int32)
    /// Whether the caller runs on the loop's thread (or the loop has not started yet).
    var isOnLoopThread: Bool { get }
}

extension PostgresIOLoop {
    /// Traps in debug builds when the caller is not on the loop's thread; `assert` is compiled out of release
    /// builds, so it costs nothing there.
    @inline(__always)
    func assertInLoop(file: StaticString = #fileID, line: UInt = #line) {
        assert(isOnLoopThread, "touched off its event loop", file: file, line: line)
    }
}

/// What a loop calls back for a watched descriptor, always on the loop's thread.
public protocol PostgresIOHandler: AnyObject {
    func readable()
    func writable()
    func flush()
}
