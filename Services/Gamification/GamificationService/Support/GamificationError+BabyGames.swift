import KindredMessages
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

    /// The owners ended the vote before the arrival: the votes stay secret until it.
    static let votingEnded = refusal(
        .failedPrecondition, "VOTING_CLOSED",
        "The parents have ended the vote; the results are revealed when the baby arrives.")

    /// The owners run the games on their profile: ending or resetting the vote, removing suggestions.
    static let babyProfileOwnersOnly = refusal(
        .permissionDenied, "BABY_PROFILE_OWNERS_ONLY", "Only the baby's parents can do this.")

    /// The votes are revealed: there is nothing left to end or reset.
    static let votesAlreadyRevealed = refusal(
        .failedPrecondition, "VOTES_ALREADY_REVEALED",
        "The baby has arrived and the votes are revealed; they can no longer be ended or reset.")

    /// The results stay secret until the baby's arrival is announced.
    static let votesNotRevealed = refusal(
        .failedPrecondition, "VOTES_NOT_REVEALED",
        "The results are revealed when the baby's arrival is announced.")
}

/// The refusals of name suggestions.
extension GamificationError {
    /// No such suggestion on the profile.
    static let suggestionNotFound = refusal(
        .notFound, "SUGGESTION_NOT_FOUND", "There is no such name suggestion on this profile.")

    /// A suggestion changed while this one was stored; trying again settles it.
    static let suggestionRaced = refusal(
        .aborted, "SUGGESTION_CHANGED", "The suggestions changed at the same moment; please try again.")

    /// The name, ignoring case, accents and spacing, is suggested already: `existing` is named.
    static func nameAlreadySuggested(_ existing: Kindred_Gamification_V1_BabyNameSuggestion) -> RPCError {
        RPCError.refusal(
            .alreadyExists, "NAME_ALREADY_SUGGESTED",
            "The name “\(existing.name)” has already been suggested; you can like it instead.",
            domain: domain,
            metadata: ["suggestion_id": existing.suggestionID, "name": existing.name])
    }

    /// The caller has suggested a name for this gender already: `existing` is named.
    static func oneNamePerGender(_ existing: Kindred_Gamification_V1_BabyNameSuggestion) -> RPCError {
        RPCError.refusal(
            .alreadyExists, "ONE_NAME_PER_GENDER",
            "You have already suggested “\(existing.name)” for this gender.", domain: domain,
            metadata: ["suggestion_id": existing.suggestionID, "name": existing.name])
    }
}
