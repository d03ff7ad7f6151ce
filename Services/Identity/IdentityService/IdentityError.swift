import KindredAuth
import KindredHandlers
import KindredRPC

/// Every refusal the identity service answers with: a gRPC status, a message an app may show, and a
/// machine-readable `ErrorInfo.reason` in the `kindred.identity` domain (`RetryInfo` too when a retry may
/// work). Account refusals are in `IdentityError+Accounts.swift`, sign-in's in `IdentityError+SignIn.swift`.
enum IdentityError {
    static let domain = "kindred.identity"

    /// A refusal with its reason, and `RetryInfo` when `retryAfter` is given.
    static func refusal(
        _ code: StatusCode, _ reason: String, _ message: String, metadata: [String: String] = [:],
        retryAfter: Duration? = nil
    ) -> RPCError {
        RPCError.refusal(
            code, reason, message, domain: domain, metadata: metadata, retryAfter: retryAfter)
    }

    /// A mailed link that cannot be used, named for the link so an app can say what to do next. The reasons
    /// say LINK, not TOKEN, so that no app confuses them with an access token's refusals.
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

    /// The password hasher's queue is full. UNAVAILABLE, not RESOURCE_EXHAUSTED: nothing of this caller's is
    /// used up (RESOURCE_EXHAUSTED is the lockout's, "you, slow down"); the instance is out of capacity for a
    /// moment, the call changed nothing, and the same call succeeds on a retry here or at another instance.
    static let passwordHashingBusy = refusal(
        .unavailable, "PASSWORD_HASHING_BUSY", "The service is busy. Please try again in a moment.",
        retryAfter: .seconds(1))
}

/// Runs a password-hasher call the way every identity RPC answers it: a full queue is
/// `IdentityError.passwordHashingBusy`. Running out of memory stays what it is: an internal error, logged.
func hashing<Value>(_ body: () async throws -> Value) async throws -> Value {
    do {
        return try await body()
    } catch PasswordHasherError.busy {
        throw IdentityError.passwordHashingBusy
    }
}
