import KindredAuth
import KindredRPC

/// The refusals of sign-in, tokens and password reset, each with its status and `ErrorInfo` reason in the
/// `kindred.identity` domain. Messages never say which part of a credential was wrong.
enum CredentialError: Error, Equatable, RPCErrorConvertible {
    /// Unknown identifier or wrong password: the same answer for both.
    case wrongPassword
    /// Too many failures in a row for this identifier.
    case locked(retryAfter: Duration)
    /// The password is right but the email is not verified yet.
    case emailNotVerified
    /// Unknown, expired, revoked or already-rotated refresh token.
    case invalidRefreshToken
    /// Unknown client or wrong secret.
    case invalidClient
    /// Unknown, expired or used password-reset token.
    case invalidResetToken
    /// The new password breaks `PasswordPolicy`: why.
    case passwordRejected(String)
    /// The password hasher's queue is full.
    case busy

    static let domain = "kindred.identity"

    var rpcError: RPCError {
        switch self {
        case .wrongPassword:
            Self.error(.unauthenticated, "INVALID_CREDENTIALS", "the username or password is wrong")
        case .locked(let retryAfter):
            Self.error(
                .resourceExhausted, "SIGN_IN_LOCKED", "too many failed sign-ins; retry later",
                retryAfter: retryAfter)
        case .emailNotVerified:
            Self.error(
                .failedPrecondition, "EMAIL_NOT_VERIFIED",
                "verify your email address first: follow the link in the email we sent")
        case .invalidRefreshToken:
            Self.error(
                .unauthenticated, "REFRESH_TOKEN_INVALID", "the refresh token is not valid; sign in again")
        case .invalidClient:
            Self.error(.unauthenticated, "INVALID_CLIENT", "the client id or secret is wrong")
        case .invalidResetToken:
            Self.error(
                .failedPrecondition, "RESET_TOKEN_INVALID",
                "the password reset link is not valid or has expired; ask for a new one")
        case .passwordRejected(let problem):
            RPCError(
                .invalidArgument, "new_password \(problem)",
                details: [
                    .badRequest([ErrorDetail.FieldViolation(field: "new_password", description: problem)])
                ])
        case .busy:
            Self.error(
                .unavailable, "SIGN_IN_BUSY", "too many sign-ins at once; retry shortly",
                retryAfter: .seconds(1))
        }
    }

    private static func error(
        _ code: StatusCode, _ reason: String, _ message: String, retryAfter: Duration? = nil
    ) -> RPCError {
        var details: [ErrorDetail] = [.errorInfo(reason: reason, domain: domain, metadata: [:])]
        if let retryAfter { details.append(.retryInfo(retryDelay: retryAfter)) }
        return RPCError(code, message, details: details)
    }
}

/// Runs a password-hasher call, answering a full queue as `CredentialError.busy` (UNAVAILABLE, retry in 1 s).
func hashing<Value>(_ body: () async throws(PasswordHasherError) -> Value) async throws -> Value {
    do {
        return try await body()
    } catch .busy {
        throw CredentialError.busy
    }
}
