import ArgumentParser
import KindredPostgres
import KindredRPC
import KindredRuntime
import Logging

/// `kindred-interop-server`: the runtime serving gRPC's interop `TestService` (and, given a database,
/// the benchmark's point lookup), for the interop suite and the benchmarks. Test-only.
@main
struct InteropServer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "kindred-interop-server")

    @Option(help: "HOST:PORT to serve on.")
    var listen = "127.0.0.1:50060"

    @Option(
        help: "PostgreSQL URL of a database holding pgbench's tables; enables kindred.bench.v1.BenchService.")
    var databaseURL: String?

    @Option(
        help:
            "PostgreSQL connection threads in the pool (for off-loop callers; each event loop also has its own)."
    )
    var poolSize = 2

    @Option(help: "Event loop threads (default: one per core).")
    var eventLoops: Int?

    @Option(
        help:
            "Log level; info, the services' default, writes every call's access line but health checks' (--log-probes writes those too: the benchmarks' kindred-access)."
    )
    var logLevel = "info"

    @Option(help: "Protect grpc.testing.TestService: sign tokens with a new key and write them to this file.")
    var requireToken: String?

    @OptionGroup(title: "TLS")
    var tls: TLSOptions

    @OptionGroup(title: "Logs")
    var log: LogOptions

    func run() async throws {
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("unknown log level \(logLevel)")
        }
        let logs = try LogSettings(options: log, environment: [:])
        let writer = try logs.writer()
        LoggingSystem.bootstrap { JSONLogHandler(label: $0, level: level, writer: writer) }
        let logger = Logger(label: "kindred-interop-server")
        let (host, port) = try ListenAddress.parse(listen)
        var configuration = ServerConfiguration(host: host, port: port)
        if let eventLoops { configuration.eventLoopCount = eventLoops }
        configuration.tls = try TLSSetup(options: tls, environment: [:]).server
        configuration.accessLog = logs.accessLog

        var testService = InteropTestService()
        if let requireToken {
            configuration.authenticator = try TestTokens.issue(to: requireToken)
            testService.publicMethods = []
        }
        var services: [any RPCService] = [testService]
        var database: PostgresPool?
        if let databaseURL {
            let pool = PostgresPool(
                rpcLoopsConfiguration: try PostgresConfiguration(url: databaseURL, poolSize: poolSize),
                logger: logger)
            services.append(BenchService(database: pool))
            database = pool
        }
        do {
            try await ProcessServer(configuration: configuration, drainTimeout: .seconds(5), logger: logger)
                .serve(services, database: database)
        } catch {
            // Close the pool even after a failed bind: exiting under its threads inside libpq crashes.
            await database?.close()
            throw error
        }
        await database?.close()
    }
}
