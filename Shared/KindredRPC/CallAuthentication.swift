import KindredAuth

/// What the server concluded about a call's access token before its handler ran (deny-by-default):
/// a protected method runs only `authenticated`; a public one runs whatever the token was.
enum CallAuthentication: Sendable {
    /// A valid token, allowed on this method.
    case authenticated(Caller)
    /// No `authorization: Bearer` token.
    case missing
    /// A token the verifier refused.
    case refused(TokenVerificationError)
    /// A token that could not be judged: the signing keys could not be loaded.
    case keysUnavailable
    /// A valid `child_readonly` token on a method that changes something.
    case readOnlyScope
    /// A token the server cannot judge because it has no authenticator.
    case unverifiable

    /// `caller`'s verdict on `route`: a child-mode token may only read, or leave child mode.
    init(_ caller: Caller, calling route: Route) {
        self =
            caller.scope == .childReadOnly && !route.allowsChildMode ? .readOnlyScope : .authenticated(caller)
    }

    /// The verdict on a token judged after a key fetch.
    init(_ outcome: Result<Caller, TokenAuthenticationError>, calling route: Route) {
        switch outcome {
        case .success(let caller): self.init(caller, calling: route)
        case .failure(.refused(let reason)): self = .refused(reason)
        case .failure(.keysUnavailable): self = .keysUnavailable
        }
    }

    /// The verified caller, when the token may act on this method.
    var caller: Caller? {
        if case .authenticated(let caller) = self { caller } else { nil }
    }

    /// How a protected method answers this call; nil when it may run.
    var refusal: RPCError? {
        if case .failure(let refusal) = outcome { refusal } else { nil }
    }

    /// The caller, or how a protected method answers this call.
    var outcome: Result<Caller, RPCError> {
        switch self {
        case .authenticated(let caller):
            .success(caller)
        case .missing:
            .failure(
                .authentication(
                    .unauthenticated, AuthenticationReason.tokenMissing,
                    "Please sign in to do this."))
        case .refused(let reason):
            .failure(.authentication(.unauthenticated, reason.reason, reason.message))
        case .unverifiable:
            .failure(
                .authentication(
                    .unauthenticated, TokenVerificationError.unknownKeyID.reason,
                    "Sign-ins cannot be checked here. Please try again later."))
        case .keysUnavailable:
            .failure(
                .authentication(
                    .unavailable, AuthenticationReason.signingKeysUnavailable,
                    "Sign-ins cannot be checked right now. Please try again in a moment."))
        case .readOnlyScope:
            .failure(
                .authentication(
                    .permissionDenied, AuthenticationReason.childModeReadOnly,
                    "Child mode can only view. A guardian can switch to parent mode with the PIN."))
        }
    }
}

extension RPCError {
    /// An answer of the authentication layer: its status, an `ErrorInfo` in the `kindred.auth` domain.
    static func authentication(_ code: StatusCode, _ reason: String, _ message: String) -> RPCError {
        let info = ErrorDetail.errorInfo(reason: reason, domain: AuthenticationReason.domain, metadata: [:])
        return RPCError(code, message, details: [info])
    }
}
