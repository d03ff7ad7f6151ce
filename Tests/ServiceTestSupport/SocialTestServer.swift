// Debug builds only (the services are testable there): see README.md.
#if DEBUG
import Foundation
import KindredAPI
import KindredAuth
import KindredEvents
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredRuntime
import KindredTestSupport
@testable import SocialService
import Logging

/// The real social service served beside a `FamilyTestStack`, over the same test database (its `social`
/// schema), trusting identity's tokens and reaching identity and family with its own client_credentials
/// token, as it runs in the stack.
final class SocialTestServer: Sendable {
    let target: String
    /// What social's parts are built from, for tests of their rules below the RPCs.
    let context: SocialContext
    private let pool: PostgresPool
    /// Whether `pool` is this server's own, closed when it stops (a replica), or the stack's.
    private let ownsPool: Bool
    private let api: SocialAPI
    private let server: RPCServer
    private let runner: Task<Void, any Error>

    /// Message bodies sealed under the tests' data keys.
    static let messageBodies = MessageBodies(cipher: TestDataKeys.cipher)

    private init(_ stack: FamilyTestStack, ownPool: Bool) async throws {
        pool =
            ownPool
            ? PostgresPool(configuration: stack.pool.configuration, logger: FamilyTestDatabase.logger)
            : stack.pool
        ownsPool = ownPool
        let credentials = try ServiceCredentials(
            clientID: "social", clientSecret: FamilyTestStack.socialSecret,
            identityTarget: stack.identityTarget)
        context = SocialContext(
            database: pool, clock: stack.clock.wallClock,
            people: try PeopleDirectory(
                identityTarget: stack.identityTarget, credentials: credentials, database: pool,
                clock: stack.clock.wallClock),
            family: try FamilyGate(familyTarget: stack.familyTarget, credentials: credentials),
            messageBodies: Self.messageBodies, logger: FamilyTestDatabase.logger)
        api = try SocialAPI(context: context)
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.eventLoopCount = 1
        configuration.authenticator = TokenAuthenticator(
            keySource: try IdentitySigningKeys(
                target: stack.identityTarget, logger: FamilyTestDatabase.logger))
        var logger = Logger(label: "social-tests")
        logger.logLevel = .critical
        server = try RPCServer.bind(configuration: configuration, services: [api], logger: logger)
        let server = server
        runner = Task { try await server.run() }
        target = "127.0.0.1:\(server.port)"
    }

    /// Serves `body` beside `stack`, then stops whatever happened. With `ownPool`, the server is a replica of
    /// its own, as a pod is: its pool, its LISTEN connection and its announcer, on the stack's database.
    static func with(
        _ stack: FamilyTestStack, ownPool: Bool = false, _ body: (SocialTestServer) async throws -> Void
    ) async throws {
        let social = try await SocialTestServer(stack, ownPool: ownPool)
        do {
            try await body(social)
        } catch {
            await social.stop()
            throw error
        }
        await social.stop()
    }

    private func stop() async {
        await api.closeStreams()
        server.beginGracefulShutdown(drainTimeout: .milliseconds(200))
        _ = try? await runner.value
        if ownsPool { await pool.close() }
    }

    /// Appends `payload` to `social.event_outbox` as social's own writes do: its stream serves it next.
    func append(_ type: String, _ payload: Kindred_Social_V1_Event.OneOf_Payload) async throws {
        let bytes = try Kindred_Social_V1_Event(payload: payload).serializedBytes()
        try await pool.transaction { tx in
            try await SocialEvents.outbox.append(
                type: type, payload: bytes, sealedWith: TestDataKeys.cipher, in: tx)
        }
    }
}
#endif
