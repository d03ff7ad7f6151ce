@testable import IdentityService
import KindredAPI
import KindredAuth
import KindredEvents
import KindredRPC
import Logging

/// The identity API served for real on a loopback port, over a test database, verifying tokens signed with
/// `TestCallers.key`: for the parts the rules' tests cannot see (statuses and details on the wire, which
/// methods are public, which roles a handler admits).
final class IdentityTestServer: Sendable {
    let client: Kindred_Identity_V1_IdentityService.Client
    private let server: RPCServer
    private let feed: EventFeed
    private let runner: Task<Void, any Error>

    init(_ test: TestAccounts) async throws {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.eventLoopCount = 1
        configuration.authenticator = TokenAuthenticator(
            keySource: FixedSigningKeys([TestCallers.key.verificationKey]))
        let credentials = try await Credentials.start(
            database: test.pool, passwords: test.accounts.passwords, settings: test.settings,
            logger: IdentityTestDatabase.logger)
        feed = try EventFeed(
            outbox: test.accounts.events, cipher: test.accounts.birthDates.cipher, pool: test.pool,
            logger: IdentityTestDatabase.logger)
        let api = IdentityAPI(credentials: credentials, accounts: test.accounts, events: feed)
        var logger = Logger(label: "identity-wire-tests")
        logger.logLevel = .critical
        server = try RPCServer.bind(configuration: configuration, services: [api], logger: logger)
        let server = server
        runner = Task { try await server.run() }
        client = Kindred_Identity_V1_IdentityService.Client(try RPCClient(target: "127.0.0.1:\(server.port)"))
    }

    /// Serves `body`, then stops whatever happened.
    static func with(_ test: TestAccounts, _ body: (IdentityTestServer) async throws -> Void) async throws {
        let server = try await IdentityTestServer(test)
        do {
            try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    func stop() async {
        await feed.close()
        server.beginGracefulShutdown(drainTimeout: .milliseconds(200))
        _ = try? await runner.value
    }

    /// Options carrying `token` as `authorization: Bearer`.
    static func bearer(_ token: String?) -> CallOptions {
        var options = CallOptions(timeout: .seconds(10))
        if let token { options.metadata.add("authorization", "Bearer \(token)") }
        return options
    }
}
