import KindredAPI
import KindredHandlers
import KindredRPC
import KindredRuntime

/// Friendships asked of the social service with gamification's own service token.
struct SocialFriendGraph: FriendGraph {
    let client: Kindred_Social_V1_SocialService.Client
    let credentials: ServiceCredentials

    init(socialTarget: String, credentials: ServiceCredentials) throws(RPCError) {
        client = Kindred_Social_V1_SocialService.Client(try RPCClient(target: socialTarget))
        self.credentials = credentials
    }

    func areFriends(_ user: UserID, _ other: UserID) async throws -> Bool {
        do {
            return try await client.areFriends(
                .init(userID: user.description, otherUserID: other.description),
                options: try await credentials.callOptions(timeout: .seconds(5), idempotent: true)
            ).friends
        } catch let error as RPCError {
            throw RPCError.unavailable(error)
        }
    }
}
