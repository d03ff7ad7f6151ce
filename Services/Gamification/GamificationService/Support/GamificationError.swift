import KindredHandlers
import KindredRPC

/// Every refusal the gamification service answers with: a gRPC status, a message an app may show, and a
/// machine-readable `ErrorInfo.reason` in the `kindred.gamification` domain. Each part keeps its own in
/// `GamificationError+<Part>.swift`; the ones here are every part's.
enum GamificationError {
    static let domain = GamificationEvents.errorDomain

    /// A refusal with its reason.
    static func refusal(_ code: StatusCode, _ reason: String, _ message: String) -> RPCError {
        RPCError.refusal(code, reason, message, domain: domain)
    }

    /// A person with an account is needed: a service token names no user.
    static let accountRequired = refusal(
        .permissionDenied, "ACCOUNT_REQUIRED", "Only a signed-in person can do this.")

    /// The caller's own id where another user's is needed.
    static let notYourself = refusal(
        .invalidArgument, "SELF_NOT_ALLOWED", "You cannot do this with yourself.")
}

extension ServerContext {
    /// The calling user's id; ACCOUNT_REQUIRED for a service, whose token names no user.
    func account() throws -> UserID {
        guard let me = try authenticatedCaller().accountUserID else {
            throw GamificationError.accountRequired
        }
        return me
    }
}
