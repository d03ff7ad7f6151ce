/// Why `TokenAuthenticator` could not turn a token into a caller.
public enum TokenAuthenticationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The token itself was refused: the RPC layer answers UNAUTHENTICATED with this reason.
    case refused(TokenVerificationError)
    /// The signing keys could not be loaded (identity unreachable), so the token could not be judged:
    /// the RPC layer answers UNAVAILABLE and the caller may retry.
    case keysUnavailable

    /// One line for the log.
    public var description: String {
        switch self {
        case .refused(let reason): reason.description
        case .keysUnavailable: "the signing keys are unavailable"
        }
    }
}
