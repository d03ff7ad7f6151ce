import KindredRPC

/// The refusals of the account rules: a gRPC status, a message an app may show, and a machine-readable
/// `ErrorInfo.reason` in the `kindred.identity` domain.
enum AccountError {
    static let domain = "kindred.identity"

    static func refusal(
        _ code: StatusCode, _ reason: String, _ message: String, metadata: [String: String] = [:]
    ) -> RPCError {
        RPCError(code, message, details: [.errorInfo(reason: reason, domain: domain, metadata: metadata)])
    }

    /// Under 13 at registration, or a date-of-birth change that would make the account under 13.
    static let ageBelowMinimum = refusal(
        .failedPrecondition, "AGE_BELOW_MINIMUM",
        "You must be at least 13 years old to have a Kindred account.", metadata: ["minimum_age": "13"])

    static let usernameTaken = refusal(
        .alreadyExists, "USERNAME_TAKEN", "That username is taken. Please choose another one.",
        metadata: ["field": "username"])

    static let emailTaken = refusal(
        .alreadyExists, "EMAIL_TAKEN", "An account with that email address already exists. Sign in instead.",
        metadata: ["field": "email"])

    /// A request id already used by a registration with other details.
    static let requestIDReused = refusal(
        .invalidArgument, "REQUEST_ID_REUSED",
        "This request_id was already used for a different registration; use a new one.")

    /// The password given again to confirm a sensitive change is not the account's.
    static let wrongPassword = refusal(
        .permissionDenied, "PASSWORD_INCORRECT", "The password is incorrect.")

    /// The caller's token names an account that no longer exists, or a caller without one (a service).
    static let noAccount = refusal(.notFound, "ACCOUNT_NOT_FOUND", "There is no account for this caller.")

    static let accountNotFound = refusal(.notFound, "ACCOUNT_NOT_FOUND", "No such account.")

    /// A stranger asking for someone's age band.
    static let ageRangeNotVisible = refusal(
        .permissionDenied, "AGE_RANGE_NOT_VISIBLE",
        "Only the user, admins and services may read a user's age range.")

    /// Anyone but an admin asking for the compliance report.
    static let adminOnly = refusal(
        .permissionDenied, "ADMIN_ONLY", "Only admins may read the compliance report.")

    /// A mailed link that cannot be used, named for the link so an app can say what to do next. The reasons say
    /// LINK, not TOKEN, so that no app confuses them with an access token's refusals.
    static func linkRefused(_ redemption: EmailTokenStore.Redemption, link: String) -> RPCError {
        switch redemption {
        case .expired:
            refusal(.failedPrecondition, "LINK_EXPIRED", "This \(link) link has expired. Ask for a new one.")
        case .used:
            refusal(.failedPrecondition, "LINK_ALREADY_USED", "This \(link) link has already been used.")
        case .unknown, .redeemed:
            refusal(
                .notFound, "LINK_UNKNOWN", "This \(link) link is not valid. Check that it was copied whole.")
        }
    }

    /// A password hasher that is out of room or memory: the call changed nothing and may be retried.
    static let busy = RPCError(
        .unavailable, "The service is busy; retry shortly.", details: [.retryInfo(retryDelay: .seconds(1))])
}
