import Foundation
@testable import ServiceTestSupport
import KindredAPI
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// What the messages tests set up: edges of the graph written as the graph part writes them (its RPCs are
/// another part's), sends, report tallies, a second instance of social, and streams read into a collector.
extension SocialTestStack {
    /// `follower` follows `followee`.
    func seedFollow(_ follower: TestUser, follows followee: TestUser) async throws {
        try await pool.query(
            "INSERT INTO social.follows VALUES (\(follower.id)::uuid, \(followee.id)::uuid, \(Date()))")
    }

    /// `follower` no longer follows `followee`.
    func seedUnfollow(_ follower: TestUser, unfollows followee: TestUser) async throws {
        try await pool.query(
            "DELETE FROM social.follows WHERE follower_id = \(follower.id)::uuid AND followee_id = \(followee.id)::uuid"
        )
    }

    /// `blocker` blocks `blocked`.
    func seedBlock(_ blocker: TestUser, blocks blocked: TestUser) async throws {
        try await pool.query(
            "INSERT INTO social.blocks VALUES (\(blocker.id)::uuid, \(blocked.id)::uuid, \(Date()))")
    }

    /// `reporters` different people reported message `messageID`, as the reports part tallies them.
    func seedReports(ofMessage messageID: String, reporters: Int) async throws {
        try await pool.query(
            "INSERT INTO social.report_tallies VALUES (2, \(messageID)::uuid, \(reporters)::int4)")
    }

    /// `sender` sends `text` to `recipient` through `client` (social's own by default); a fresh request_id
    /// unless one is given.
    @discardableResult
    func send(
        _ text: String, from sender: TestUser, to recipient: TestUser, requestID: String = UUID().uuidString,
        through client: Kindred_Social_V1_SocialService.Client? = nil
    ) async throws -> Kindred_Social_V1_Message {
        let response = try await (client ?? social).sendMessage(
            .init(requestID: requestID, recipientUserID: recipient.id, text: text), options: sender.bearer)
        return try #require(response.message)
    }

    /// A page of `user`'s conversations.
    func conversations(of user: TestUser, size: Int32 = 0, token: String = "") async throws
        -> Kindred_Social_V1_ListConversationsResponse
    {
        try await social.listConversations(
            .init(page: .init(pageSize: size, pageToken: token)), options: user.bearer)
    }

    /// A page of conversation `conversationID`'s messages, as `user` asks for it.
    func messages(in conversationID: String, as user: TestUser, size: Int32 = 0, token: String = "")
        async throws -> Kindred_Social_V1_ListMessagesResponse
    {
        try await social.listMessages(
            .init(conversationID: conversationID, page: .init(pageSize: size, pageToken: token)),
            options: user.bearer)
    }

    /// Runs `body` with a client of a second social instance on the same database.
    func withSecondInstance(_ body: (Kindred_Social_V1_SocialService.Client) async throws -> Void)
        async throws
    {
        try await SocialTestServer.with(base) { other in
            try await body(Kindred_Social_V1_SocialService.Client(try RPCClient(target: other.target)))
        }
    }

    /// Runs `body` with a client of each of `count` replicas of social on the same database, each with its own
    /// pool (its own LISTEN connection and announcer), as pods are.
    func withReplicas(
        _ count: Int, _ body: ([Kindred_Social_V1_SocialService.Client]) async throws -> Void
    ) async throws {
        guard count > 0 else { return try await body([]) }
        try await SocialTestServer.with(base, ownPool: true) { replica in
            let client = Kindred_Social_V1_SocialService.Client(try RPCClient(target: replica.target))
            try await withReplicas(count - 1) { others in try await body([client] + others) }
        }
    }

    /// Opens `user`'s `WatchMessages` through `client` and returns once it is live: a stream sends only
    /// what commits after it started, so `sender` sends "warm-up" messages until one arrives. The watch
    /// then leaves those out.
    func watchMessages(
        of user: TestUser, through client: Kindred_Social_V1_SocialService.Client,
        warmingUpWith sender: TestUser
    ) async throws -> MessageWatch {
        var options = user.bearer
        options.timeout = .seconds(60)
        let watch = MessageWatch(client.watchMessages(.init(), options: options))
        for attempt in 1...50 {
            try await send("warm-up \(attempt)", from: sender, to: user)
            // Woken by the warm-up's arrival; one sent before the stream was live never arrives.
            if (try? await watch.warmUps.first(1, within: .milliseconds(100))) != nil { return watch }
        }
        throw TestFailure("no warm-up message reached \(user.username)'s stream")
    }
}

/// A `WatchMessages` stream read in the background.
final class MessageWatch: Sendable {
    /// The warm-up messages received.
    let warmUps = StreamCollector<Kindred_Social_V1_Message>()
    /// What was received after the warm-ups.
    let messages = StreamCollector<Kindred_Social_V1_Message>()
    private let reader: Task<Void, any Error>

    init(_ stream: ClientResponseStream<Kindred_Social_V1_Message>) {
        let (warmUps, messages) = (warmUps, messages)
        reader = Task {
            for try await message in stream {
                (message.text.hasPrefix("warm-up") ? warmUps : messages).add(message)
            }
        }
    }

    /// What was received after the warm-ups.
    var sinceWarmUp: [Kindred_Social_V1_Message] { messages.received }

    /// The first `count` messages after the warm-ups, once they arrived; fails after 10 s.
    func first(_ count: Int) async throws -> [Kindred_Social_V1_Message] {
        try await messages.first(count)
    }

    /// Ends the stream.
    func stop() async {
        reader.cancel()
        _ = await reader.result
    }
}
