import KindredAuth
import KindredPostgres
import KindredRPC
import Logging

/// One run of a service: connect, migrate, serve until SIGTERM, drain.
struct ServiceRunner {
    let service: ServiceDefinition
    let settings: ServiceSettings
    let logger: Logger

    /// `kindred-<name> migrate`: applies pending migrations and returns.
    func migrateOnly() async throws {
        try await withDatabase(migrate)
    }

    /// `kindred-<name> serve`: serves until SIGTERM or SIGINT, then drains and returns.
    func serve() async throws {
        try await withDatabase { database in
            if settings.migrateAtStart { try await migrate(database) }
            let background = BackgroundWork(logger: logger)
            let environment = try ServiceEnvironment(
                database: database, logger: logger, settings: settings, background: background)
            // Background work is waited for whatever happens, before withDatabase closes the pool under it.
            do {
                try await serve(environment)
            } catch {
                await background.stopAndWait()
                throw error
            }
            await background.stopAndWait()
        }
        logger.info("stopped")
    }

    /// Builds the services and serves them until the drain ends.
    private func serve(_ environment: ServiceEnvironment) async throws {
        let services = try await service.makeServices(environment)
        var configuration = ServerConfiguration(host: settings.host, port: settings.port)
        if let loops = settings.eventLoops { configuration.eventLoopCount = loops }
        configuration.handshakeTimeout = settings.handshakeTimeout
        configuration.idleTimeout = settings.idleTimeout
        configuration.maxConnections = settings.maxConnections
        configuration.maxConnectionAge = settings.maxConnectionAge
        configuration.admission = settings.admission
        configuration.tls = settings.tls.server
        configuration.accessLog = settings.logs.accessLog
        configuration.authenticator = TokenAuthenticator(keySource: try await signingKeys(environment))
        let server = ProcessServer(
            configuration: configuration, drainTimeout: settings.drainTimeout, logger: logger)
        let metrics = try serveMetrics()
        defer { metrics?.close() }
        try await server.serve(services, database: environment.database, background: environment.background)
    }

    /// Starts `/metrics` on its own thread when `--metrics-listen` asks for it.
    private func serveMetrics() throws(StartupError) -> MetricsEndpoint? {
        guard let (host, port) = settings.metricsListen else { return nil }
        do {
            let endpoint = try MetricsEndpoint(host: host, port: port, registry: .process)
            logger.info(
                "metrics served", metadata: ["address": "\(host):\(endpoint.port)", "path": "/metrics"])
            return endpoint
        } catch {
            throw StartupError("cannot serve metrics on \(host):\(port): \(error)")
        }
    }

    /// The service's own key source, or identity's `GetSigningKeys`.
    private func signingKeys(_ environment: ServiceEnvironment) async throws -> any SigningKeySource {
        if let own = service.signingKeys { return try await own(environment) }
        let target = settings.peers.identity
        do {
            let keys = try IdentitySigningKeys(target: target, logger: logger)
            logger.info("tokens are verified with identity's keys", metadata: ["identity": "\(target)"])
            return keys
        } catch {
            throw StartupError("cannot reach identity at \(target): \(error.message)")
        }
    }

    /// Runs `body` with a connected pool and closes the pool whatever happens: its connection threads
    /// may be inside libpq, and exiting under them (after a failed bind, say) crashes the process.
    func withDatabase(_ body: (PostgresPool) async throws -> Void) async throws {
        let database = try await connect()
        do {
            try await body(database)
        } catch {
            await database.close()
            throw error
        }
        // Calls that finished in the drain may have committed rows other instances' streams wait to hear of.
        await database.flushAnnouncements()
        await database.close()
    }

    private func connect() async throws -> PostgresPool {
        var configuration: PostgresConfiguration
        do {
            configuration = try PostgresConfiguration(url: settings.databaseURL)
        } catch {
            throw StartupError("bad database URL: \(error)")
        }
        // In range: ServiceSettings checked them as the pool's initializer would.
        if let count = settings.databaseConnections { configuration.poolSize = count }
        if let count = settings.databaseTransactionConnections {
            configuration.loopTransactionConnections = count
        }
        let database = PostgresPool(rpcLoopsConfiguration: configuration, logger: logger)
        do {
            _ = try await database.query("SELECT 1")
        } catch {
            await database.close()
            throw StartupError("PostgreSQL is unreachable at \(configuration.redactedDescription): \(error)")
        }
        // So an operator can size max_connections for every instance at once (deploy/k8s/README.md).
        let eventLoops = (settings.eventLoops ?? ServerConfiguration(port: 0).eventLoopCount) + 1
        logger.info(
            "PostgreSQL connections",
            metadata: [
                "at_most": "\(configuration.mostConnections(eventLoops: eventLoops))",
                "connection_threads": "\(configuration.poolSize)",
                "transaction_connections_per_loop": "\(configuration.loopTransactionConnections)",
                "event_loops_with_background": "\(eventLoops)",
            ])
        return database
    }

    private func migrate(_ database: PostgresPool) async throws {
        let runner = try MigrationRunner(schema: service.name, migrations: service.migrations)
        let applied = try await runner.migrate(database)
        logger.info(
            "migrations up to date",
            metadata: [
                "applied": .array(applied.map { "\($0.version) \($0.name)" }),
                "shipped": "\(service.migrations.count)",
            ])
    }
}
