#if canImport(Glibc)
import Glibc
#endif
public import KindredPostgres
public import KindredRPC
public import Logging
import KindredMetrics
import KindredThreads

/// Serves a process's RPC services, plus health and reflection, until SIGTERM or SIGINT, then drains.
public struct ProcessServer: Sendable {
    public var configuration: ServerConfiguration
    public var drainTimeout: Duration
    public var logger: Logger

    public init(configuration: ServerConfiguration, drainTimeout: Duration, logger: Logger) {
        self.configuration = configuration
        self.drainTimeout = drainTimeout
        self.logger = logger
    }

    /// Binds (throwing a `StartupError` if the address is taken), serves, and returns after the drain.
    /// With a database, health follows its reachability: NOT_SERVING while PostgreSQL is unreachable.
    /// The background work, if any, is told to stop as the drain begins.
    public func serve(
        _ services: [any RPCService], database: PostgresPool?, background: BackgroundWork? = nil
    ) async throws {
        let signals = TerminationSignal.install()
        let board = HealthStatusBoard()
        let served = StandardServices(board: board, services: services)
        let server = try bind(served.all)
        for loop in server.loops { database?.openConnections(on: loop) }
        server.registerMetrics(in: .process)
        served.markServing(database?.isReachable ?? true)
        served.markAlive()
        let systemd = SystemdNotifier(environment: Environment.variables())
        notify(systemd, "READY=1")

        let reachability = database.map(served.follow)
        let drain = Task {
            for await number in signals {
                logger.info("draining", metadata: ["signal": "\(number)", "timeout": "\(drainTimeout)"])
                DrainWatchdog.start(limit: drainTimeout + DrainWatchdog.grace, logger: logger)
                // GOAWAY first: the streams the board and the background work end next reach their
                // clients after it, as UNAVAILABLE (see `RPCError.serverShuttingDown`).
                server.beginGracefulShutdown(drainTimeout: drainTimeout)
                notify(systemd, "STOPPING=1")
                board.beginDrain()
                await background?.beginDrain()
                return
            }
        }
        let reload = Task { [logger] in
            for await _ in TerminationSignal.install([SIGHUP]) { Self.reloadTLS(server, logger: logger) }
        }
        try await server.run()
        reload.cancel()
        drain.cancel()
        reachability?.cancel()
    }

    /// Tells systemd (a `Type=notify` unit) the state; a unit of another type never sets NOTIFY_SOCKET.
    private func notify(_ systemd: SystemdNotifier, _ state: String) {
        do {
            try systemd.notify(state)
        } catch {
            logger.warning("cannot notify systemd", metadata: ["state": "\(state)", "cause": "\(error)"])
        }
    }

    /// SIGHUP: the listener's and the clients' TLS files are read again; connections open keep theirs.
    private static func reloadTLS(_ server: RPCServer, logger: Logger) {
        try? server.reloadTLS()  // logs either way
        do {
            try ClientTLS.processDefault?.reload()
        } catch {
            logger.error(
                "TLS client credentials not reloaded; the previous ones stay in use",
                metadata: [
                    "error": "\(error)"
                ])
        }
    }

    private func bind(_ services: [any RPCService]) throws -> RPCServer {
        do {
            return try RPCServer.bind(configuration: configuration, services: services, logger: logger)
        } catch {
            throw StartupError("cannot listen on \(configuration.host):\(configuration.port): \(error)")
        }
    }
}
