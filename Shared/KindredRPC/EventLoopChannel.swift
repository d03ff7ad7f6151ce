/// A socket an event loop drives: the loop reports readiness and flushes it once per iteration.
/// Server connections and client connections both conform, so one loop serves both.
protocol EventLoopChannel: AnyObject {
    /// The socket; the loop's epoll token.
    var fd: Int32 { get }
    /// Set while queued for the end-of-iteration flush.
    var isDirty: Bool { get set }
    /// The socket is readable (or hung up, or failed).
    func readable()
    /// The socket has room to write again.
    func writable()
    /// Sends whatever the channel has queued.
    func flush()
}
