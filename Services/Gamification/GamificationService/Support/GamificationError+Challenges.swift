import KindredRPC

/// The refusals of challenges, coins and the ranking.
extension GamificationError {
    /// No such challenge, or one the caller takes no part in and may not see: told apart by nobody.
    static let challengeNotFound = refusal(.notFound, "CHALLENGE_NOT_FOUND", "There is no such challenge.")

    /// The caller's part in the challenge is over (decided, forfeited or past its last day).
    static let challengeEnded = refusal(
        .failedPrecondition, "CHALLENGE_ENDED", "This challenge is already over for you.")

    /// The invitee is not the caller's friend, or no such user: one answer for both.
    static let notFriends = refusal(
        .permissionDenied, "NOT_FRIENDS", "You can only invite your friends to a challenge.")

    /// Popular challenges are joined, not shared by invitation.
    static let popularNotInvitable = refusal(
        .failedPrecondition, "POPULAR_CHALLENGE",
        "Anyone can join a popular challenge; share it instead of inviting.")

    /// A friend's challenge is entered by invitation only.
    static let notPopular = refusal(
        .failedPrecondition, "NOT_A_POPULAR_CHALLENGE",
        "Only popular challenges can be joined without an invitation.")

    /// The invitation was answered the other way, or the challenge is over.
    static let invitationAnswered = refusal(
        .failedPrecondition, "INVITATION_ANSWERED", "You have already answered this invitation.")

    /// The request_id was used for another challenge.
    static let requestIDReused = refusal(
        .invalidArgument, "REQUEST_ID_REUSED",
        "This request_id was already used for another challenge; use a new one.")

    /// Popular challenges are created by admins.
    static let adminRequired = refusal(
        .permissionDenied, "ADMIN_REQUIRED", "Only an administrator can create popular challenges.")
}
