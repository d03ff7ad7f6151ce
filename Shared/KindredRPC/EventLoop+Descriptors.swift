internal import CLinuxSystem

/// Something outside KindredRPC that a loop drives: a socket watched in the loop's epoll (a database
/// connection, say), so its I/O runs on the same thread as the handlers that use it.
public protocol EventLoopDescriptorHandler: AnyObject {
    /// The descriptor is readable (or hung up, or failed).
    func descriptorReadable()
    /// The descriptor has room to write again (reported only while writable interest is on).
    func descriptorWritable()
    /// The end of the loop iteration in which `flushSoon` was called.
    func descriptorFlush()
}

/// Adapts a handler to the loop's channel table.
private final class WatchedDescriptor: EventLoopChannel {
    let fd: Int32
    var isDirty = false
    let handler: any EventLoopDescriptorHandler

    init(fd: Int32, handler: any EventLoopDescriptorHandler) {
        self.fd = fd
        self.handler = handler
    }

    func readable() { handler.descriptorReadable() }
    func writable() { handler.descriptorWritable() }
    func flush() { handler.descriptorFlush() }
}

extension EventLoop {
    /// The loop running on the calling thread, if any (a handler's loop, inside a handler).
    public static var currentLoop: EventLoop? { current }

    /// Runs `body` on this loop's thread: inline when already there, else at the loop's next wake-up.
    public func run(_ body: @escaping @Sendable () -> Void) { execute(body) }

    /// Starts reporting `fd`'s readiness to `handler` (held until `unwatch`).
    /// Call on this loop's thread only, as every other descriptor method.
    public func watch(fd: Int32, handler: any EventLoopDescriptorHandler) throws(SystemCallError) {
        try register(fd: fd, token: UInt64(fd), events: EPOLLIN.rawValue)
        attach(WatchedDescriptor(fd: fd, handler: handler))
    }

    /// Turns reporting of writability on (while output is stuck in a full socket buffer) or off.
    public func setWritableInterest(fd: Int32, _ interested: Bool) {
        modify(fd: fd, events: EPOLLIN.rawValue | (interested ? EPOLLOUT.rawValue : 0))
    }

    /// Calls the handler's `descriptorFlush` once, at the end of this iteration: many writes, one send.
    public func flushSoon(fd: Int32) {
        guard Int(fd) < connections.count, let channel = connections[Int(fd)] else { return }
        markDirty(channel)
    }

    /// Stops watching `fd`; call before closing it.
    public func unwatch(fd: Int32) {
        guard Int(fd) < connections.count, let channel = connections[Int(fd)] else { return }
        unregister(fd: fd)
        if channel.isDirty { dirty.removeAll { $0 === channel } }
        detach(channel)
    }
}
