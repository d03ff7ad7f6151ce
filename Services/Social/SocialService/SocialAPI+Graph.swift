import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredRuntime

/// The graph: friend requests, friendships, follows, blocks and user search (`SocialGraph`'s parts). Every
/// method needs a user's token, but `AreFriends` and `IsFollowing` also serve services.
extension SocialAPI {
    func sendFriendRequest(_ request: Kindred_Social_V1_SendFriendRequestRequest, context: ServerContext)
        async throws -> Kindred_Social_V1_SendFriendRequestResponse
    {
        let me = try context.account()
        let outcome = try await graph.friendships.send(to: try RecipientRef(request.to), from: me)
        return Kindred_Social_V1_SendFriendRequestResponse(outcome: outcome)
    }

    func acceptFriendRequest(_ request: Kindred_Social_V1_AcceptFriendRequestRequest, context: ServerContext)
        async throws -> Kindred_Social_V1_AcceptFriendRequestResponse
    {
        let me = try context.account()
        let friend = try await graph.friendships.accept(
            try FieldViolations.id("request_id", request.requestID), as: me)
        return Kindred_Social_V1_AcceptFriendRequestResponse(friend: friend)
    }

    func declineFriendRequest(
        _ request: Kindred_Social_V1_DeclineFriendRequestRequest, context: ServerContext
    ) async throws -> Kindred_Social_V1_DeclineFriendRequestResponse {
        let me = try context.account()
        try await graph.friendships.decline(try FieldViolations.id("request_id", request.requestID), as: me)
        return Kindred_Social_V1_DeclineFriendRequestResponse()
    }

    func cancelFriendRequest(_ request: Kindred_Social_V1_CancelFriendRequestRequest, context: ServerContext)
        async throws -> Kindred_Social_V1_CancelFriendRequestResponse
    {
        let me = try context.account()
        try await graph.friendships.cancel(try FieldViolations.id("request_id", request.requestID), as: me)
        return Kindred_Social_V1_CancelFriendRequestResponse()
    }

    func removeFriend(_ request: Kindred_Social_V1_RemoveFriendRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_RemoveFriendResponse
    {
        let me = try context.account()
        try await graph.friendships.remove(try FieldViolations.id("user_id", request.userID), as: me)
        return Kindred_Social_V1_RemoveFriendResponse()
    }

    func listFriends(_ request: Kindred_Social_V1_ListFriendsRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_ListFriendsResponse
    {
        try await graph.friendships.friends(request.page, of: try context.account())
    }

    func listFriendRequests(_ request: Kindred_Social_V1_ListFriendRequestsRequest, context: ServerContext)
        async throws -> Kindred_Social_V1_ListFriendRequestsResponse
    {
        try await graph.friendships.requests(request, of: try context.account())
    }

    func areFriends(_ request: Kindred_Social_V1_AreFriendsRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_AreFriendsResponse
    {
        let caller = try context.authenticatedCaller()
        let friends = try await graph.friendships.areFriends(try FriendPairDraft(request), as: caller)
        return Kindred_Social_V1_AreFriendsResponse(friends: friends)
    }

    func follow(_ request: Kindred_Social_V1_FollowRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_FollowResponse
    {
        let me = try context.account()
        try await graph.follows.follow(try FieldViolations.id("user_id", request.userID), as: me)
        return Kindred_Social_V1_FollowResponse()
    }

    func unfollow(_ request: Kindred_Social_V1_UnfollowRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_UnfollowResponse
    {
        let me = try context.account()
        try await graph.follows.unfollow(try FieldViolations.id("user_id", request.userID), as: me)
        return Kindred_Social_V1_UnfollowResponse()
    }

    func listFollowers(_ request: Kindred_Social_V1_ListFollowersRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_ListFollowersResponse
    {
        let me = try context.account()
        let found = try await graph.follows.list(
            try FollowListDraft(.followers, of: request.userID, request.page, as: me), as: me)
        return Kindred_Social_V1_ListFollowersResponse(followers: found.follows, page: found.page)
    }

    func listFollowing(_ request: Kindred_Social_V1_ListFollowingRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_ListFollowingResponse
    {
        let me = try context.account()
        let found = try await graph.follows.list(
            try FollowListDraft(.following, of: request.userID, request.page, as: me), as: me)
        return Kindred_Social_V1_ListFollowingResponse(following: found.follows, page: found.page)
    }

    func isFollowing(_ request: Kindred_Social_V1_IsFollowingRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_IsFollowingResponse
    {
        let caller = try context.authenticatedCaller()
        let followed = try await graph.follows.isFollowing(try FollowCheckDraft(request), as: caller)
        return Kindred_Social_V1_IsFollowingResponse(followedUserIds: followed)
    }

    func blockUser(_ request: Kindred_Social_V1_BlockUserRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_BlockUserResponse
    {
        let me = try context.account()
        try await graph.blocks.block(try FieldViolations.id("user_id", request.userID), as: me)
        return Kindred_Social_V1_BlockUserResponse()
    }

    func unblockUser(_ request: Kindred_Social_V1_UnblockUserRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_UnblockUserResponse
    {
        let me = try context.account()
        try await graph.blocks.unblock(try FieldViolations.id("user_id", request.userID), as: me)
        return Kindred_Social_V1_UnblockUserResponse()
    }

    func listBlockedUsers(_ request: Kindred_Social_V1_ListBlockedUsersRequest, context: ServerContext)
        async throws -> Kindred_Social_V1_ListBlockedUsersResponse
    {
        try await graph.blocks.blocked(request.page, by: try context.account())
    }

    /// Identity's search with the caller's own token, less the people social keeps from them: a page may be
    /// shorter than asked (even empty) while `next_page_token` still leads on.
    func searchUsers(_ request: Kindred_Social_V1_SearchUsersRequest, context: ServerContext) async throws
        -> Kindred_Social_V1_SearchUsersResponse
    {
        try await graph.search.search(request, as: try context.account(), forwarding: context.requestMetadata)
    }
}
