import KindredRPC

/// The refusals of profiles and guardian links.
extension FamilyError {
    /// A caller without an account of its own (a service, an operator's client) where only a person may act.
    static let accountRequired = refusal(
        .permissionDenied, "ACCOUNT_REQUIRED", "Only a signed-in user can do this.")

    static let inviterMustBeMinor = refusal(
        .permissionDenied, "INVITER_MUST_BE_MINOR", "Only a user aged 13 to 17 can invite a guardian.")

    static let guardianLimitReached = refusal(
        .failedPrecondition, "GUARDIAN_LIMIT_REACHED", "A minor can have at most two guardians.",
        metadata: ["max_guardians": "\(Guardians.maximumPerMinor)"])

    /// A request id already used by an invitation to another address.
    static let requestIDReused = refusal(
        .invalidArgument, "REQUEST_ID_REUSED",
        "This request_id was already used for an invitation to another address; use a new one.")

    /// Too many invitations: the same address again too soon, or too many in a day.
    static func invitationsRateLimited(retryAfter: Duration) -> RPCError {
        refusal(
            .resourceExhausted, "INVITATIONS_RATE_LIMITED",
            "You have sent enough invitations for now. Please try again later.", retryAfter: retryAfter)
    }

    static let guardianMustBeAdult = refusal(
        .permissionDenied, "GUARDIAN_MUST_BE_ADULT", "Only an adult (18 or older) can become a guardian.")

    static let cannotGuardSelf = refusal(
        .permissionDenied, "CANNOT_GUARD_SELF", "You cannot become your own guardian.")

    static let emailNotVerified = refusal(
        .failedPrecondition, "EMAIL_NOT_VERIFIED", "Verify your email address before becoming a guardian.")

    static let invitationExpired = refusal(
        .failedPrecondition, "LINK_EXPIRED", "This guardian invitation link has expired. Ask for a new one.")

    static let invitationUsed = refusal(
        .failedPrecondition, "LINK_ALREADY_USED", "This guardian invitation link has already been used.")

    static let invitationUnknown = refusal(
        .notFound, "LINK_UNKNOWN",
        "This guardian invitation link is not valid. Check that it was copied whole.")

    /// The minor on a link trying to end it.
    static let onlyGuardianMayRemove = refusal(
        .permissionDenied, "ONLY_GUARDIAN_MAY_REMOVE", "Only the guardian can end a guardian link.")

    /// No such link, or one the caller is not on: the same answer, so nobody learns of other families.
    static let guardianLinkNotFound = refusal(.notFound, "GUARDIAN_LINK_NOT_FOUND", "No such guardian link.")
}
