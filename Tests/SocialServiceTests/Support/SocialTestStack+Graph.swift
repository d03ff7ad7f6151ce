@testable import ServiceTestSupport
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import SocialService

/// The graph as the tests use it: its RPCs as one user calls them about another, and what the tables hold.
extension SocialTestStack {
    /// Registers adults with these usernames.
    func adults(_ usernames: String...) async throws -> [TestUser] {
        var users: [TestUser] = []
        for username in usernames { users.append(try await register(username, age: 30)) }
        return users
    }

    /// `user` asks `other`, by id, to be friends.
    @discardableResult
    func ask(_ user: TestUser, _ other: TestUser) async throws -> Kindred_Social_V1_SendFriendRequestResponse
        .OneOf_Outcome?
    {
        try await social.sendFriendRequest(.init(to: .init(ref: .userID(other.id))), options: user.bearer)
            .outcome
    }

    /// The id of the request `user` sends `other`; fails the test when sending made no pending request.
    func request(_ user: TestUser, _ other: TestUser) async throws -> String {
        guard case .request(let request) = try await ask(user, other) else {
            throw TestFailure("\(user.username)'s request to \(other.username) made no pending request")
        }
        return request.requestID
    }

    /// Makes `user` and `other` friends through the RPCs: one asks, the other accepts.
    func befriendByRPC(_ user: TestUser, _ other: TestUser) async throws {
        let requestID = try await request(user, other)
        _ = try await social.acceptFriendRequest(.init(requestID: requestID), options: other.bearer)
    }

    /// `user` follows `other` through the RPC, which lets social meet them both.
    func followByRPC(_ user: TestUser, _ other: TestUser) async throws {
        _ = try await social.follow(.init(userID: other.id), options: user.bearer)
    }

    /// `user` blocks `other` through the RPC, which ends every edge between them.
    func blockByRPC(_ user: TestUser, _ other: TestUser) async throws {
        _ = try await social.blockUser(.init(userID: other.id), options: user.bearer)
    }

    /// How `user` stands with `other`, as the tables say.
    func relationship(_ user: TestUser, _ other: TestUser) async throws -> Relationship {
        try await RelationshipStore.between(user.userID, other.userID, on: pool)
    }

    /// The pending requests between `user` and `other`, either way.
    func pendingRequests(_ user: TestUser, _ other: TestUser) async throws -> Int {
        try await pool.query(
            """
            SELECT count(*) FROM social.friend_requests
            WHERE (sender_id = \(user.id)::uuid AND recipient_id = \(other.id)::uuid)
               OR (sender_id = \(other.id)::uuid AND recipient_id = \(user.id)::uuid)
            """
        )[0].decode(Int.self)
    }
}

extension Array {
    /// The first two elements, for tests that registered two users.
    var pair: (Element, Element) { (self[0], self[1]) }
    /// The first three elements, for tests that registered three users.
    var triple: (Element, Element, Element) { (self[0], self[1], self[2]) }
}
