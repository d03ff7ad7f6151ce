import KindredHandlers
import KindredRPC

/// The refusals of usage, leaderboards and popular apps, in the `kindred.gamification` domain.
enum UsageError {
    static let domain = "kindred.gamification"

    /// A person with an account is needed: a service token names no user.
    static let accountRequired = RPCError.refusal(
        .permissionDenied, "ACCOUNT_REQUIRED", "Only a signed-in person can do this.", domain: domain)

    /// A time zone name PostgreSQL's zone database does not know.
    static let unknownTimeZone = FieldViolations.single(
        "settings.time_zone", "is not a known time zone name, such as Europe/Rome")
}

extension ServerContext {
    /// The calling user's id; ACCOUNT_REQUIRED for a service, whose token names no user.
    func usageAccount() throws -> UserID {
        guard let me = try authenticatedCaller().accountUserID else { throw UsageError.accountRequired }
        return me
    }
}
