import KindredRPC

/// The refusals of sign-in and tokens. Messages never say which part of a credential was wrong.
extension IdentityError {
    /// Unknown identifier or wrong password: the same answer for both.
    static let invalidCredentials = refusal(
        .unauthenticated, "INVALID_CREDENTIALS", "The username or password is wrong.")

    /// Too many wrong passwords in a row for this identifier (`SignInLockout`).
    static func signInLocked(retryAfter: Duration) -> RPCError {
        refusal(
            .resourceExhausted, "SIGN_IN_LOCKED",
            "Too many wrong passwords in a row. Please try again later.",
            retryAfter: retryAfter)
    }

    /// The password is right but the email is not verified yet.
    static let emailNotVerified = refusal(
        .failedPrecondition, "EMAIL_NOT_VERIFIED",
        "Verify your email address first: follow the link in the email we sent.")

    /// Unknown, expired, revoked or already-rotated refresh token.
    static let refreshTokenInvalid = refusal(
        .unauthenticated, "REFRESH_TOKEN_INVALID", "The refresh token is not valid. Please sign in again.")

    /// Unknown client or wrong secret.
    static let invalidClient = refusal(
        .unauthenticated, "INVALID_CLIENT", "The client id or secret is wrong.")

    /// A parent-mode refresh token after its 30 minutes: a refresh refusal like `refreshTokenInvalid`, with
    /// its own reason so that an app asks for the proof again rather than for a sign-in.
    static let deviceModeSessionEnded = refusal(
        .unauthenticated, "DEVICE_MODE_SESSION_ENDED",
        "Parent mode has ended. Enter the PIN or password again to go on.")

    /// `IssueDeviceModeTokens` from anyone but a service client allowed `device_modes` in the clients file.
    static let deviceModesNotAllowed = refusal(
        .permissionDenied, "DEVICE_MODES_NOT_ALLOWED",
        "Only a service allowed device_modes in identity's clients file may issue device-mode tokens.",
        metadata: ["permission": ClientRegistry.Permission.deviceModes.rawValue])
}
