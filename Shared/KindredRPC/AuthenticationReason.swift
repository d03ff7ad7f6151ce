/// The `ErrorInfo` the shared authentication layer answers with, so apps can tell the cases apart.
///
/// A refused token's reason is its `TokenVerificationError.reason` (`TOKEN_EXPIRED`, ...); here are the rest.
public enum AuthenticationReason {
    /// The `ErrorInfo.domain` of every authentication answer.
    public static let domain = "kindred.auth"
    /// UNAUTHENTICATED: a protected method was called without an `authorization: Bearer` token.
    public static let tokenMissing = "TOKEN_MISSING"
    /// PERMISSION_DENIED: a `child_readonly` token called a method that changes something.
    public static let childModeReadOnly = "CHILD_MODE_READ_ONLY"
    /// UNAVAILABLE: the signing keys could not be loaded (identity unreachable); the call changed nothing.
    public static let signingKeysUnavailable = "SIGNING_KEYS_UNAVAILABLE"
    /// PERMISSION_DENIED: the caller's role is not one the method allows (`authenticatedCaller(as:)`).
    public static let roleNotAllowed = "ROLE_NOT_ALLOWED"
    /// PERMISSION_DENIED: over mutual TLS, the caller's certificate names no peer a `PeerRule` allows here.
    public static let peerNotAllowed = "PEER_NOT_ALLOWED"
}
