public import KindredPostgres
public import KindredRPC
public import Logging

/// KindredRPC's loops run PostgreSQL connections too: a handler's statements never leave its thread.
extension EventLoop: PostgresIOLoop {
    public func watch(fd: Int32, handler: any PostgresIOHandler) throws {
        try watch(fd: fd, handler: PostgresDescriptor(handler))
    }
}

extension PostgresPool {
    /// A pool whose calls from RPC handlers use a connection on the handler's own event loop, and whose
    /// background work runs on the loops too (`EventLoop.background`).
    public convenience init(rpcLoopsConfiguration configuration: PostgresConfiguration, logger: Logger) {
        self.init(
            configuration: configuration, logger: logger, currentLoop: { EventLoop.currentLoop },
            backgroundLoop: { EventLoop.background })
    }
}

private final class PostgresDescriptor: EventLoopDescriptorHandler {
    let handler: any PostgresIOHandler
    init(_ handler: any PostgresIOHandler) { self.handler = handler }
    func descriptorReadable() { handler.readable() }
    func descriptorWritable() { handler.writable() }
    func descriptorFlush() { handler.flush() }
}
