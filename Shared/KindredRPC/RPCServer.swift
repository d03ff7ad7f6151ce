#if canImport(Glibc)
import Glibc
#endif
internal import CLinuxSystem
public import Logging
import Synchronization

/// A gRPC server: one listening socket, one epoll event loop per core, nghttp2 sessions, async handlers.
public final class RPCServer: Sendable {
    let core: ServerCore
    /// The event loops its connections and their handlers run on.
    public let loops: [EventLoop]
    let listener: ListeningSocket
    private let state = Mutex(RunState())

    /// The port the server listens on (the one the kernel picked when configured with 0).
    public var port: Int { listener.port }

    private struct RunState {
        var started = false
        var stoppedLoops = 0
        var drainTimeout: Duration?
        var continuation: CheckedContinuation<Void, Never>?
    }

    private init(core: ServerCore, loops: [EventLoop], listener: ListeningSocket) {
        self.core = core
        self.loops = loops
        self.listener = listener
    }

    /// Binds the listening socket and prepares the event loops; throws at once if the port is taken.
    public static func bind(
        configuration: ServerConfiguration, services: [any RPCService], logger: Logger
    ) throws -> RPCServer {
        var router = RPCRouter()
        for service in services { router.register(service) }
        if configuration.authenticator == nil, router.routes.values.contains(where: { !$0.isPublic }) {
            logger.warning("no token authenticator configured: protected methods will refuse every call")
        }
        raiseOpenFileLimit()
        let tls = try configuration.tls.map { settings throws(TLSError) in try ServerTLS(settings: settings) }
        let listener = try ListeningSocket(
            host: configuration.host, port: configuration.port, backlog: configuration.listenBacklog)
        do {
            let loops = try (0..<max(1, configuration.eventLoopCount)).map { index throws(SystemCallError) in
                try EventLoop(index: index, threadName: "rpc-loop-\(index)")
            }
            try loops[0].register(fd: listener.fd, token: EventLoop.listenToken, events: EPOLLIN.rawValue)
            let core = ServerCore(
                configuration: configuration, routes: router.routes, tls: tls, logger: logger)
            return RPCServer(core: core, loops: loops, listener: listener)
        } catch {
            close(listener.fd)
            throw error
        }
    }

    /// Whether `run()` has started the event loops.
    var isRunning: Bool { state.withLock { $0.started } }

    /// Serves until a graceful shutdown has drained; returns normally then.
    public func run() async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let drainTimeout = state.withLock { state in
                precondition(!state.started, "RPCServer.run() may be called once")
                state.started = true
                state.continuation = continuation
                return state.drainTimeout
            }
            start()
            if let drainTimeout { drain(timeout: drainTimeout) }
        }
        core.logger.info("server stopped", metadata: ["port": "\(port)"])
    }

    /// Stops accepting, sends GOAWAY on every connection, lets calls in flight finish for up to
    /// `drainTimeout`, then cancels what is left; `run()` returns once every loop has stopped.
    public func beginGracefulShutdown(drainTimeout: Duration = .seconds(30)) {
        let started = state.withLock { state in
            if state.drainTimeout == nil { state.drainTimeout = drainTimeout }
            return state.started
        }
        if started { drain(timeout: drainTimeout) }
    }

    private func start() {
        let acceptor = Acceptor(listener: listener, loops: loops, core: core)
        loops[0].acceptor = acceptor
        for loop in loops {
            loop.onStop = { [self] in loopStopped() }
            loop.execute { loop.startMaintenance() }
            loop.startThread()
        }
        loops[0].execute { [self] in watchTLSFiles() }
        core.logger.info(
            "server listening",
            metadata: ["port": "\(port)", "loops": "\(loops.count)", "transport": "\(transportName)"])
    }

    /// Closing the listener resets the connections the kernel still holds in its accept queue, with their
    /// clients' calls unread and nothing to tell those from processed ones; so they are accepted first, and each
    /// loop adopts what it was dealt before it begins draining (its jobs run in order): they get its GOAWAY, which
    /// names no stream of theirs as taken, and their clients send the calls elsewhere.
    private func drain(timeout: Duration) {
        let acceptingLoop = loops[0]
        let fd = listener.fd
        let loops = loops
        acceptingLoop.execute {
            if let acceptor = acceptingLoop.acceptor {
                acceptingLoop.acceptor = nil
                acceptor.acceptAll(atMost: .max)
                acceptor.closeHeldConnections()
                acceptingLoop.unregister(fd: fd)
                close(fd)
            }
            for loop in loops { loop.execute { loop.beginDraining(timeout: timeout) } }
        }
    }

    private func loopStopped() {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.stoppedLoops += 1
            guard state.stoppedLoops == loops.count else { return nil }
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }

    /// 1,000 connections need more descriptors than the usual soft limit of 1,024.
    private static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else {
            return
        }
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
