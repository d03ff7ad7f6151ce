import KindredRPC

/// The refusals of `ReportContent`.
extension SocialError {
    /// No such message, event or media, or a message the reporter neither sent nor received: a stranger
    /// learns nothing of other people's conversations by guessing ids.
    static let contentNotFound = refusal(.notFound, "CONTENT_NOT_FOUND", "There is no such content.")

    /// The reporter named themselves, or content they made: reports are about other people.
    static let reportingYourself = refusal(
        .invalidArgument, "SELF_NOT_ALLOWED", "You cannot report yourself or your own content.")
}
