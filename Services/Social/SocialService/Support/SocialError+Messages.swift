import KindredRPC

/// The refusals of direct messages.
extension SocialError {
    /// Parental controls on one side or the other forbid this message. One text whichever side it is, so that
    /// a sender never learns the recipient's settings.
    static let messagingRestricted = refusal(
        .permissionDenied, "PARENTAL_CONTROLS_MESSAGING_RESTRICTED",
        "Parental controls don't allow messaging this person. Ask a guardian to change the settings.")

    /// No such conversation, or one the caller may not read (not theirs, or with someone blocked either way):
    /// the cases are told apart by nobody.
    static let conversationNotFound = refusal(
        .notFound, "CONVERSATION_NOT_FOUND", "There is no such conversation.")

    /// The sender used this request_id for another message.
    static let requestIDReused = refusal(
        .invalidArgument, "REQUEST_ID_REUSED",
        "This request_id was already used for another message; use a new one.")
}
