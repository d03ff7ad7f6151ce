import KindredRPC

/// The refusals of events, joins, the feed and media views.
extension SocialError {
    /// No such event, or one the caller may not see (private and neither a friend nor invited, or a block
    /// between the caller and its organizer): the two are told apart by nobody.
    static let eventNotFound = refusal(.notFound, "EVENT_NOT_FOUND", "There is no such event.")

    /// No such media item, or one of an event the caller may not see.
    static let mediaNotFound = refusal(.notFound, "MEDIA_NOT_FOUND", "There is no such media item.")

    /// The event is mature and the caller's content filtering is on, or enough people reported it.
    static let eventFiltered = refusal(
        .permissionDenied, "CONTENT_FILTERED", "This content is not available to you.")

    /// A minor whose guardian restricted public events tried to create one.
    static let publicEventRestricted = refusal(
        .permissionDenied, "PARENTAL_CONTROLS_PUBLIC_EVENT_RESTRICTED",
        "Parental controls allow you to create private events only. Ask a guardian to change the settings.")

    /// Someone who may see the event but did not organize it tried what only its organizer may.
    static let notOrganizer = refusal(
        .permissionDenied, "NOT_ORGANIZER", "Only the event's organizer may do this.")

    /// A minor's join waits for a guardian: `approvalID` is family's approval request.
    static func guardianApprovalRequired(_ approvalID: ApprovalID) -> RPCError {
        refusal(
            .failedPrecondition, "GUARDIAN_APPROVAL_REQUIRED",
            "A guardian needs to approve joining this event; they have been asked.",
            metadata: ["approval_id": approvalID.description])
    }

    /// A guardian declined the minor's join of this event; their answer stands.
    static let guardianDenied = refusal(
        .permissionDenied, "GUARDIAN_DENIED", "Your guardian declined joining this event.")

    /// A view was asked for a media item the caller can already see.
    static let mediaNotHidden = refusal(
        .failedPrecondition, "MEDIA_NOT_HIDDEN", "This media item is not hidden from you.")
}
