import KindredHandlers
import KindredRPC

/// Every refusal the social service answers with: a gRPC status, a message an app may show, and a
/// machine-readable `ErrorInfo.reason` in the `kindred.social` domain. Each part keeps its own in
/// `SocialError+<Part>.swift`; the ones here are every part's.
enum SocialError {
    static let domain = SocialEvents.errorDomain

    /// A refusal with its reason, and `RetryInfo` when `retryAfter` is given.
    static func refusal(
        _ code: StatusCode, _ reason: String, _ message: String, metadata: [String: String] = [:],
        retryAfter: Duration? = nil
    ) -> RPCError {
        RPCError.refusal(code, reason, message, domain: domain, metadata: metadata, retryAfter: retryAfter)
    }

    /// No such user, or one who blocked the caller: the two are told apart by nobody.
    static let userNotFound = refusal(.notFound, "USER_NOT_FOUND", "There is no such user.")

    /// The caller blocked this user; only the blocker is told, so their app can offer to unblock.
    static let userBlocked = refusal(
        .failedPrecondition, "USER_BLOCKED", "You blocked this person. Unblock them first to do this.")

    /// The caller's own id where another user's is needed.
    static let notYourself = refusal(
        .invalidArgument, "SELF_NOT_ALLOWED", "You cannot do this with yourself.")

    /// A person with an account is needed: a service token names no user.
    static let accountRequired = refusal(
        .permissionDenied, "ACCOUNT_REQUIRED", "Only a signed-in person can do this.")
}
