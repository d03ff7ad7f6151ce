import KindredHandlers
import KindredMessages
import KindredRPC

/// An `AreFriendsRequest` whose two user ids were checked.
struct FriendPairDraft: Sendable, Equatable {
    let user: UserID
    let other: UserID

    /// The draft `request` holds, or INVALID_ARGUMENT naming each bad id.
    init(_ request: Kindred_Social_V1_AreFriendsRequest) throws(RPCError) {
        (user, other) = try FieldViolations.ids(
            ("user_id", request.userID), ("other_user_id", request.otherUserID))
    }
}
