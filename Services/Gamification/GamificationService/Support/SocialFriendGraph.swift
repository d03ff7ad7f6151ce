import KindredAPI
import KindredHandlers
import KindredRPC
import KindredRuntime

/// Friendships asked of the social service: `AreFriends` with gamification's own service token, on every
/// call and never cached, since the one thing that asks it is a write (an invitation) that must not outlive
/// an unfriend; the caller's friend list with the caller's own token (`ListFriends`, 500 a page). Social's
/// failures become gamification's answers through `PeerCall`.
struct SocialFriendGraph: FriendGraph {
    /// More friends than any person keeps: a list still running past it is cut there.
    static let mostPages = 20

    let client: Kindred_Social_V1_SocialService.Client
    let credentials: ServiceCredentials

    init(socialTarget: String, credentials: ServiceCredentials) throws(RPCError) {
        client = Kindred_Social_V1_SocialService.Client(try RPCClient(target: socialTarget))
        self.credentials = credentials
    }

    func areFriends(_ user: UserID, _ other: UserID) async throws -> Bool {
        try await PeerCall.run("social") {
            try await client.areFriends(
                .init(userID: user.description, otherUserID: other.description),
                options: try await credentials.callOptions(timeout: .seconds(5), idempotent: true)
            ).friends
        }
    }

    func friends(forwarding requestMetadata: Metadata) async throws -> [Friend] {
        var options = CallOptions(timeout: .seconds(5), idempotent: true)
        options.forwardAuthorization(from: requestMetadata)
        var friends: [Friend] = []
        var token = ""
        for _ in 0..<Self.mostPages {
            let page = try await PeerCall.run("social", passingRefusals: true) {
                try await client.listFriends(
                    .init(page: .init(pageSize: Int32(Paging.maximumSize), pageToken: token)),
                    options: options)
            }
            friends += page.friends.compactMap { friend in
                friend.person.flatMap { person in
                    UserID(person.userID).map { Friend(id: $0, username: person.username) }
                }
            }
            token = page.page?.nextPageToken ?? ""
            if token.isEmpty { break }
        }
        return friends
    }
}
