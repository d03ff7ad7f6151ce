import KindredHandlers
import KindredMessages
import KindredRPC

/// Declining, cancelling and removing: each ends something for both users and needs no lock, as nothing is
/// added.
extension Friendships {
    /// `DeclineFriendRequest`: `me`, its recipient, declines pending request `requestID`; the sender may ask again.
    func decline(_ requestID: FriendRequestID, as me: UserID) async throws {
        try await end(requestID, by: me, as: .recipient)
    }

    /// `CancelFriendRequest`: `me`, its sender, withdraws pending request `requestID`.
    func cancel(_ requestID: FriendRequestID, as me: UserID) async throws {
        try await end(requestID, by: me, as: .sender)
    }

    /// `RemoveFriend`: ends the friendship of `me` and `userID`, for both; NOT_FRIENDS when there is none.
    func remove(_ userID: UserID, as me: UserID) async throws {
        let friend = userID
        guard try await FriendshipStore.unfriend(me, friend, on: context.database) else {
            throw SocialError.notFriends
        }
    }

    /// Ends request `requestID` if `me` is its `side`; FRIEND_REQUEST_NOT_FOUND otherwise, as for no request.
    private func end(_ requestID: FriendRequestID, by me: UserID, as side: FriendshipStore.Side) async throws
    {
        guard try await FriendshipStore.end(requestID, by: me, as: side, on: context.database) != nil else {
            throw SocialError.friendRequestNotFound
        }
    }
}
