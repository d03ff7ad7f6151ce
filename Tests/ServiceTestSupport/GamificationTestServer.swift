// Debug builds only (the services are testable there): see README.md.
#if DEBUG
import KindredAuth
import KindredPostgres
import KindredRPC
import KindredRuntime
import KindredTestSupport
@testable import GamificationService
import Logging

/// The real gamification service beside a `SocialTestStack`, over the same test database (its `gamification`
/// schema), trusting identity's tokens and asking social about friendships with its own client_credentials
/// token, as it runs in the stack.
final class GamificationTestServer: Sendable {
    let target: String
    /// What gamification's parts are built from, for tests of their rules below the RPCs.
    let context: GamificationContext
    private let api: GamificationAPI
    private let server: RPCServer
    private let runner: Task<Void, any Error>

    /// Usage sessions sealed under the tests' data keys: "test-2" seals, "test-1" still opens.
    static let usageSessions = UsageSessions(cipher: TestDataKeys.cipher)

    private init(_ stack: SocialTestStack) async throws {
        let credentials = try ServiceCredentials(
            clientID: "gamification", clientSecret: FamilyTestStack.gamificationSecret,
            identityTarget: stack.base.identityTarget)
        context = GamificationContext(
            database: stack.pool, clock: stack.clock.wallClock,
            friends: try SocialFriendGraph(socialTarget: stack.server.target, credentials: credentials),
            babyMembers: try FamilyBabyMemberships(
                familyTarget: stack.base.familyTarget, credentials: credentials),
            guardians: try FamilyGuardians(familyTarget: stack.base.familyTarget),
            usageSessions: Self.usageSessions, logger: FamilyTestDatabase.logger)
        api = try GamificationAPI(context: context)
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.eventLoopCount = 1
        configuration.authenticator = TokenAuthenticator(
            keySource: try IdentitySigningKeys(
                target: stack.base.identityTarget, logger: FamilyTestDatabase.logger))
        var logger = Logger(label: "gamification-tests")
        logger.logLevel = .critical
        server = try RPCServer.bind(configuration: configuration, services: [api], logger: logger)
        let server = server
        runner = Task { try await server.run() }
        target = "127.0.0.1:\(server.port)"
    }

    /// Serves `body` beside `stack`, then stops whatever happened.
    static func with(_ stack: SocialTestStack, _ body: (GamificationTestServer) async throws -> Void)
        async throws
    {
        let gamification = try await GamificationTestServer(stack)
        do {
            try await body(gamification)
        } catch {
            await gamification.stop()
            throw error
        }
        await gamification.stop()
    }

    private func stop() async {
        await api.closeStreams()
        server.beginGracefulShutdown(drainTimeout: .milliseconds(200))
        _ = try? await runner.value
    }
}
#endif
