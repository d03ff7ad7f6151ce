import KindredRPC

/// The refusals of the baby-profile games.
extension GamificationError {
    /// Not a member of the profile, or no such profile: told apart by nobody, as family answers.
    static let babyProfileNotFound = refusal(
        .notFound, "BABY_PROFILE_NOT_FOUND", "There is no such baby profile.")

    /// The owners know the answers: the games are for followers.
    static let babyProfileFollowersOnly = refusal(
        .permissionDenied, "BABY_PROFILE_FOLLOWERS_ONLY", "Only the baby's followers can vote.")

    /// The baby has arrived: the votes are closed and revealed.
    static let votingClosed = refusal(
        .failedPrecondition, "VOTING_CLOSED", "The baby has arrived, so voting is closed; see the results.")

    /// The results stay secret until the baby's arrival is announced.
    static let votesNotRevealed = refusal(
        .failedPrecondition, "VOTES_NOT_REVEALED",
        "The results are revealed when the baby's arrival is announced.")
}
