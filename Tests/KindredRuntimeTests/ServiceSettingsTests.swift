import ArgumentParser
import KindredPostgres
import KindredRPC
import Logging
import Testing

@testable import KindredRuntime

@Suite struct ServiceSettingsTests {
    let service = ServiceDefinition(
        name: "family", defaultPort: 50052, migrations: [], makeServices: { _ in [] })

    func settings(_ arguments: [String], _ environment: [String: String]) throws -> ServiceSettings {
        try ServiceSettings(
            options: try ServiceOptions.parse(arguments), service: service, environment: environment)
    }

    @Test func defaultsNeedOnlyADatabase() throws {
        let settings = try settings([], ["KINDRED_FAMILY_DATABASE_URL": "postgresql://f@localhost/kindred"])
        #expect(settings.host == "0.0.0.0")
        #expect(settings.port == 50052)
        #expect(settings.logLevel == .info)
        #expect(settings.migrateAtStart)
        #expect(settings.drainTimeout == .seconds(20))
        #expect(settings.handshakeTimeout == .seconds(5))
        #expect(settings.idleTimeout == .seconds(300))
        #expect(settings.maxConnections == 10_000)
        #expect(settings.maxConnectionAge == nil)
    }

    @Test func connectionLimitsComeFromTheFlagsOrTheEnvironment() throws {
        let environment = [
            "KINDRED_FAMILY_DATABASE_URL": "postgresql://f@h/db", "KINDRED_HANDSHAKE_TIMEOUT": "3",
            "KINDRED_IDLE_TIMEOUT": "60", "KINDRED_MAX_CONNECTIONS": "500",
            "KINDRED_MAX_CONNECTION_AGE": "600",
        ]
        let fromEnvironment = try settings([], environment)
        #expect(fromEnvironment.handshakeTimeout == .seconds(3))
        #expect(fromEnvironment.idleTimeout == .seconds(60))
        #expect(fromEnvironment.maxConnections == 500)
        #expect(fromEnvironment.maxConnectionAge == .seconds(600))
        let fromFlags = try settings(
            [
                "--handshake-timeout", "2", "--idle-timeout", "30", "--max-connections", "20000",
                "--max-connection-age", "300",
            ], environment)
        #expect(fromFlags.handshakeTimeout == .seconds(2))
        #expect(fromFlags.idleTimeout == .seconds(30))
        #expect(fromFlags.maxConnections == 20_000)
        #expect(fromFlags.maxConnectionAge == .seconds(300))
    }

    @Test func databaseConnectionsComeFromTheFlagsOrTheEnvironmentElseThePoolsDefaults() throws {
        let database = ["KINDRED_FAMILY_DATABASE_URL": "postgresql://f@h/db"]
        let defaults = try settings([], database)
        #expect(defaults.databaseConnections == nil && defaults.databaseTransactionConnections == nil)
        let environment = database.merging(
            ["KINDRED_DATABASE_CONNECTIONS": "2", "KINDRED_DATABASE_TRANSACTION_CONNECTIONS": "1"]) { $1 }
        let fromEnvironment = try settings([], environment)
        #expect(
            fromEnvironment.databaseConnections == 2 && fromEnvironment.databaseTransactionConnections == 1)
        let fromFlags = try settings(
            ["--database-connections", "8", "--database-transaction-connections", "256"], environment)
        #expect(fromFlags.databaseConnections == 8 && fromFlags.databaseTransactionConnections == 256)
    }

    @Test func aPoolsMostConnectionsCountEachLoopsAndTheListener() throws {
        let pool = try PostgresConfiguration(
            url: "postgresql://f@h/db", poolSize: 2, loopTransactionConnections: 1)
        // Two connection threads; three loops (two for calls, the background one) of 2 + 1; one LISTEN.
        #expect(pool.mostConnections(eventLoops: 3) == 2 + 3 * 3 + 1)
        #expect(try PostgresConfiguration(url: "postgresql://f@h/db").mostConnections(eventLoops: 3) == 23)
    }

    @Test func admissionComesFromTheFlagsOrTheEnvironment() throws {
        let database = ["KINDRED_FAMILY_DATABASE_URL": "postgresql://f@h/db"]
        let defaults = try settings([], database).admission
        #expect(defaults.isEnabled && defaults.target == .milliseconds(20) && defaults.minimum == 8)
        let environment = database.merging(
            ["KINDRED_ADMISSION_TARGET": "50", "KINDRED_ADMISSION_MINIMUM": "4"]) { $1 }
        let fromEnvironment = try settings([], environment).admission
        #expect(fromEnvironment.target == .milliseconds(50) && fromEnvironment.minimum == 4)
        let fromFlags = try settings(["--admission-target", "10", "--admission-minimum", "8"], environment)
            .admission
        #expect(fromFlags.target == .milliseconds(10) && fromFlags.minimum == 8)
        #expect(throws: StartupError.self) { try settings(["--admission-minimum", "0"], database) }
        #expect(try settings(["--admission-target", "0"], database).admission.isEnabled == false)
    }

    @Test func peerThrottleComesFromTheFlagsOrTheEnvironmentAndZeroTurnsItOff() throws {
        let database = ["KINDRED_FAMILY_DATABASE_URL": "postgresql://f@h/db"]
        #expect(try settings([], database).peerThrottle == ClientThrottle.Settings(k: 2))
        let environment = database.merging(["KINDRED_PEER_THROTTLE": "1.5"]) { $1 }
        #expect(try settings([], environment).peerThrottle == ClientThrottle.Settings(k: 1.5))
        #expect(
            try settings(["--peer-throttle", "3"], environment).peerThrottle == ClientThrottle.Settings(k: 3))
        #expect(try settings(["--peer-throttle", "0"], environment).peerThrottle == nil)
        // Below 1 a client would refuse calls a healthy peer accepts; a word is no number.
        #expect(throws: StartupError.self) { try settings(["--peer-throttle", "0.5"], database) }
        #expect(throws: StartupError.self) {
            try settings([], database.merging(["KINDRED_PEER_THROTTLE": "two"]) { $1 })
        }
    }

    @Test func flagsWinOverTheEnvironment() throws {
        let environment = [
            "KINDRED_FAMILY_LISTEN": "127.0.0.1:6000", "KINDRED_FAMILY_DATABASE_URL": "postgresql://env@h/db",
            "KINDRED_LOG_LEVEL": "debug", "KINDRED_DRAIN_TIMEOUT": "5",
        ]
        let fromEnvironment = try settings([], environment)
        #expect(fromEnvironment.port == 6000)
        #expect(fromEnvironment.logLevel == .debug)
        #expect(fromEnvironment.drainTimeout == .seconds(5))

        let fromFlags = try settings(
            [
                "--listen", "[::1]:7000", "--database-url", "postgresql://flag@h/db", "--log-level", "error",
                "--no-migrate",
            ],
            environment)
        #expect(fromFlags.host == "::1")
        #expect(fromFlags.port == 7000)
        #expect(fromFlags.databaseURL == "postgresql://flag@h/db")
        #expect(fromFlags.logLevel == .error)
        #expect(!fromFlags.migrateAtStart)
    }

    @Test func identityTargetComesFromTheFlagTheEnvironmentOrTheDefault() throws {
        let database = ["KINDRED_FAMILY_DATABASE_URL": "postgresql://f@h/db"]
        #expect(try settings([], database).peers.identity == "127.0.0.1:50051")
        let environment = database.merging(["KINDRED_IDENTITY_TARGET": "identity:7000"]) { $1 }
        #expect(try settings([], environment).peers.identity == "identity:7000")
        #expect(
            try settings(["--identity-target", "[::1]:7001"], environment).peers.identity == "[::1]:7001")
    }

    @Test(arguments: [
        (["--identity-target", "identity"], "identity target 'identity' is not HOST:PORT"),
        (["--log-level", "loud"], "unknown log level"),
        (["--listen", "nowhere"], "is not HOST:PORT"),
        (["--listen", "host:99999"], "port from 0 to 65535"),
        (["--event-loops", "0"], "at least 1"),
        (["--handshake-timeout", "0"], "--handshake-timeout must be at least 1"),
        (["--idle-timeout=-5"], "--idle-timeout must be at least 1"),
        (["--max-connections", "0"], "--max-connections must be at least 1"),
        (["--max-connection-age", "0"], "--max-connection-age must be at least 1"),
        (["--database-connections", "0"], "--database-connections must be at least 1"),
        (["--database-connections", "257"], "--database-connections must be at most 256"),
        (
            ["--database-transaction-connections", "0"],
            "--database-transaction-connections must be at least 1"
        ),
        (
            ["--database-transaction-connections", "300"],
            "--database-transaction-connections must be at most 256"
        ),
    ])
    func badSettingsSayWhatIsWrong(arguments: [String], complaint: String) throws {
        let error = #expect(throws: StartupError.self) {
            try settings(arguments, ["KINDRED_FAMILY_DATABASE_URL": "postgresql://f@h/db"])
        }
        #expect(error?.description.contains(complaint) == true)
    }

    @Test func aMissingDatabaseURLNamesTheVariable() {
        let error = #expect(throws: StartupError.self) { try settings([], [:]) }
        #expect(error?.description.contains("KINDRED_FAMILY_DATABASE_URL") == true)
    }

    @Test func aNonNumericEnvironmentValueIsRefused() {
        let error = #expect(throws: StartupError.self) {
            try settings(
                [], ["KINDRED_FAMILY_DATABASE_URL": "postgresql://f@h/db", "KINDRED_EVENT_LOOPS": "many"])
        }
        #expect(error?.description.contains("KINDRED_EVENT_LOOPS") == true)
    }
}

@Suite struct ListenAddressTests {
    @Test(arguments: [
        ("0.0.0.0:50051", "0.0.0.0", 50051), ("localhost:0", "localhost", 0), ("[::]:443", "::", 443),
    ])
    func parses(text: String, host: String, port: Int) throws {
        let parsed = try ListenAddress.parse(text)
        #expect(parsed.host == host)
        #expect(parsed.port == port)
    }

    @Test(arguments: ["50051", ":50051", "[::1]50051", "host:port", "host:-1"])
    func refuses(text: String) {
        #expect(throws: StartupError.self) { try ListenAddress.parse(text) }
    }
}
