import KindredAPI
import KindredMessages
import KindredRPC

/// The graph: friend requests, friendships, follows, blocks and user search: placeholders until the part lands.
extension SocialAPI {
    func sendFriendRequest(_ request: Kindred_Social_V1_SendFriendRequestRequest, context: ServerContext) async throws -> Kindred_Social_V1_SendFriendRequestResponse {
        throw RPCError(.unimplemented, "SendFriendRequest is not implemented yet")
    }

    func acceptFriendRequest(_ request: Kindred_Social_V1_AcceptFriendRequestRequest, context: ServerContext) async throws -> Kindred_Social_V1_AcceptFriendRequestResponse {
        throw RPCError(.unimplemented, "AcceptFriendRequest is not implemented yet")
    }

    func declineFriendRequest(_ request: Kindred_Social_V1_DeclineFriendRequestRequest, context: ServerContext) async throws -> Kindred_Social_V1_DeclineFriendRequestResponse {
        throw RPCError(.unimplemented, "DeclineFriendRequest is not implemented yet")
    }

    func cancelFriendRequest(_ request: Kindred_Social_V1_CancelFriendRequestRequest, context: ServerContext) async throws -> Kindred_Social_V1_CancelFriendRequestResponse {
        throw RPCError(.unimplemented, "CancelFriendRequest is not implemented yet")
    }

    func removeFriend(_ request: Kindred_Social_V1_RemoveFriendRequest, context: ServerContext) async throws -> Kindred_Social_V1_RemoveFriendResponse {
        throw RPCError(.unimplemented, "RemoveFriend is not implemented yet")
    }

    func listFriends(_ request: Kindred_Social_V1_ListFriendsRequest, context: ServerContext) async throws -> Kindred_Social_V1_ListFriendsResponse {
        throw RPCError(.unimplemented, "ListFriends is not implemented yet")
    }

    func listFriendRequests(_ request: Kindred_Social_V1_ListFriendRequestsRequest, context: ServerContext) async throws -> Kindred_Social_V1_ListFriendRequestsResponse {
        throw RPCError(.unimplemented, "ListFriendRequests is not implemented yet")
    }

    func areFriends(_ request: Kindred_Social_V1_AreFriendsRequest, context: ServerContext) async throws -> Kindred_Social_V1_AreFriendsResponse {
        throw RPCError(.unimplemented, "AreFriends is not implemented yet")
    }

    func follow(_ request: Kindred_Social_V1_FollowRequest, context: ServerContext) async throws -> Kindred_Social_V1_FollowResponse {
        throw RPCError(.unimplemented, "Follow is not implemented yet")
    }

    func unfollow(_ request: Kindred_Social_V1_UnfollowRequest, context: ServerContext) async throws -> Kindred_Social_V1_UnfollowResponse {
        throw RPCError(.unimplemented, "Unfollow is not implemented yet")
    }

    func listFollowers(_ request: Kindred_Social_V1_ListFollowersRequest, context: ServerContext) async throws -> Kindred_Social_V1_ListFollowersResponse {
        throw RPCError(.unimplemented, "ListFollowers is not implemented yet")
    }

    func listFollowing(_ request: Kindred_Social_V1_ListFollowingRequest, context: ServerContext) async throws -> Kindred_Social_V1_ListFollowingResponse {
        throw RPCError(.unimplemented, "ListFollowing is not implemented yet")
    }

    func isFollowing(_ request: Kindred_Social_V1_IsFollowingRequest, context: ServerContext) async throws -> Kindred_Social_V1_IsFollowingResponse {
        throw RPCError(.unimplemented, "IsFollowing is not implemented yet")
    }

    func blockUser(_ request: Kindred_Social_V1_BlockUserRequest, context: ServerContext) async throws -> Kindred_Social_V1_BlockUserResponse {
        throw RPCError(.unimplemented, "BlockUser is not implemented yet")
    }

    func unblockUser(_ request: Kindred_Social_V1_UnblockUserRequest, context: ServerContext) async throws -> Kindred_Social_V1_UnblockUserResponse {
        throw RPCError(.unimplemented, "UnblockUser is not implemented yet")
    }

    func listBlockedUsers(_ request: Kindred_Social_V1_ListBlockedUsersRequest, context: ServerContext) async throws -> Kindred_Social_V1_ListBlockedUsersResponse {
        throw RPCError(.unimplemented, "ListBlockedUsers is not implemented yet")
    }

    func searchUsers(_ request: Kindred_Social_V1_SearchUsersRequest, context: ServerContext) async throws -> Kindred_Social_V1_SearchUsersResponse {
        throw RPCError(.unimplemented, "SearchUsers is not implemented yet")
    }
}
