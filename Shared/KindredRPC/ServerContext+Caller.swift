public import KindredAuth

/// Who is calling, as the server verified it before the handler ran. Authentication is the transport's job
/// (deny-by-default, see `RPCService.publicMethods`); roles are the handler's, one line each:
///
/// ```swift
/// let caller = try context.authenticatedCaller()              // any valid token
/// let admin = try context.authenticatedCaller(as: .admin)     // admins only
/// let peer = try context.authenticatedCaller(as: .service)    // other Kindred services only
/// ```
extension ServerContext {
    /// The caller a valid access token names. Always set in a protected method; in a public one, nil without
    /// a token, with a refused one, or with a child-mode token on a method that changes something.
    public var caller: Caller? { authentication.caller }

    /// The verified caller, or the error a protected method answers without one: UNAUTHENTICATED with the
    /// token's reason, UNAVAILABLE while the keys cannot be loaded, PERMISSION_DENIED `CHILD_MODE_READ_ONLY`.
    public func authenticatedCaller() throws(RPCError) -> Caller {
        try authentication.outcome.get()
    }

    /// The verified caller if its role is one of `roles`; PERMISSION_DENIED `ROLE_NOT_ALLOWED` otherwise.
    public func authenticatedCaller(as roles: TokenClaims.Role...) throws(RPCError) -> Caller {
        let caller = try authenticatedCaller()
        guard roles.contains(caller.role) else {
            let allowed = roles.map(\.rawValue).joined(separator: " or ")
            throw .authentication(
                .permissionDenied, AuthenticationReason.roleNotAllowed,
                "Only \(allowed) callers can do this.")
        }
        return caller
    }
}
