import Foundation
import KindredAPI
import KindredAuth
import KindredEvents
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredRuntime
@testable import SocialService
import Logging

/// Social's skeleton served for real beside a `FamilyTestStack`, over the same test database (its `social`
/// schema, migrated here) and trusting identity's tokens: what family's consumer of social's events reads.
/// Tests append the events social will one day append itself.
final class SocialTestServer: Sendable {
    let target: String
    private let pool: PostgresPool
    private let feed: EventFeed
    private let server: RPCServer
    private let runner: Task<Void, any Error>

    private init(_ stack: FamilyTestStack) async throws {
        pool = stack.pool
        try await pool.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA social"))
        _ = try await MigrationRunner(schema: "social", migrations: SocialMigrations.all).migrate(pool)
        feed = try EventFeed(outbox: SocialEvents.outbox, pool: pool, logger: FamilyTestDatabase.logger)
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.eventLoopCount = 1
        configuration.authenticator = TokenAuthenticator(
            keySource: try IdentitySigningKeys(
                target: stack.identityTarget, logger: FamilyTestDatabase.logger))
        var logger = Logger(label: "social-tests")
        logger.logLevel = .critical
        server = try RPCServer.bind(
            configuration: configuration, services: [SocialAPI(events: feed)], logger: logger)
        let server = server
        runner = Task { try await server.run() }
        target = "127.0.0.1:\(server.port)"
    }

    /// Serves `body` beside `stack`, then stops whatever happened.
    static func with(_ stack: FamilyTestStack, _ body: (SocialTestServer) async throws -> Void) async throws {
        let social = try await SocialTestServer(stack)
        do {
            try await body(social)
        } catch {
            await social.stop()
            throw error
        }
        await social.stop()
    }

    private func stop() async {
        await feed.close()
        server.beginGracefulShutdown(drainTimeout: .milliseconds(200))
        _ = try? await runner.value
    }

    /// Appends `payload` to `social.event_outbox` as social's own writes will: its stream serves it next.
    func append(_ type: String, _ payload: Kindred_Social_V1_Event.OneOf_Payload) async throws {
        let bytes = try Kindred_Social_V1_Event(payload: payload).serializedBytes()
        try await pool.transaction { tx in
            try await SocialEvents.outbox.append(type: type, payload: bytes, in: tx)
        }
    }
}
