import KindredRPC

/// The refusals of the graph: friend requests, friendships, follows, blocks and their lists.
extension SocialError {
    /// A friend request to someone who is a friend already.
    static let alreadyFriends = refusal(.alreadyExists, "ALREADY_FRIENDS", "You are friends already.")

    /// A second request to someone the caller's first one still waits on.
    static let friendRequestExists = refusal(
        .alreadyExists, "FRIEND_REQUEST_EXISTS",
        "Your friend request to this person is still waiting for an answer.")

    /// No such pending request, or one the caller is not the side of that may do this (only its recipient
    /// accepts or declines, only its sender cancels): the two are told apart by nobody.
    static let friendRequestNotFound = refusal(
        .notFound, "FRIEND_REQUEST_NOT_FOUND", "There is no such friend request.")

    /// Removing a friend who is none.
    static let notFriends = refusal(.notFound, "NOT_FRIENDS", "You are not friends with this person.")

    /// Another user's followers or following: each user sees only their own.
    static let notYourList = refusal(
        .permissionDenied, "NOT_YOUR_LIST", "Only its owner can see this list.")

    /// A question about two users (are they friends, whom does one follow) from a user it is not about.
    static let notYourRelationship = refusal(
        .permissionDenied, "NOT_YOUR_RELATIONSHIP", "Only the people concerned can ask this.")
}
