// Debug builds only (the services are testable there): see README.md.
#if DEBUG
import KindredAPI
import KindredPostgres
import KindredRPC
import KindredTestSupport
@testable import GamificationService

/// Identity, family, social and gamification served for real on loopback over one test database, as they run
/// in the stack: gamification asks social about friendships with its own client_credentials token.
struct GamificationTestStack: Sendable {
    let social: SocialTestStack
    let server: GamificationTestServer
    let gamification: Kindred_Gamification_V1_GamificationService.Client

    var pool: PostgresPool { social.pool }
    var clock: TestClock { social.clock }
    /// What gamification's parts are built from, for tests of their rules below the RPCs.
    var context: GamificationContext { server.context }

    /// Runs `body` with a stack on a fresh database, then stops it whatever happened.
    static func with(_ body: (GamificationTestStack) async throws -> Void) async throws {
        try await SocialTestStack.with { social in
            try await GamificationTestServer.with(social) { server in
                try await body(
                    GamificationTestStack(
                        social: social, server: server,
                        gamification: Kindred_Gamification_V1_GamificationService.Client(
                            try RPCClient(target: server.target))))
            }
        }
    }

    /// Registers `username`, `age` years old, verified and signed in.
    func register(_ username: String, age: Int = 30) async throws -> TestUser {
        try await social.register(username, age: age)
    }

    /// Makes `user` and `other` friends through social's RPCs: a request and its acceptance.
    func befriend(_ user: TestUser, _ other: TestUser) async throws {
        let sent = try await social.social.sendFriendRequest(
            .init(to: .init(ref: .userID(other.id))), options: user.bearer)
        guard case .request(let request) = sent.outcome else { return }  // they had asked already: friends
        _ = try await social.social.acceptFriendRequest(
            .init(requestID: request.requestID), options: other.bearer)
    }
}
#endif
