/// Who is calling, as a verified access token says: what a handler authorizes against.
public struct Caller: Sendable, Hashable {
    /// The user id (`sub`), or the client id when `role` is `service`.
    public let userID: String
    /// `role`.
    public let role: TokenClaims.Role
    /// `age_band`.
    public let ageBand: TokenClaims.AgeBand
    /// `pc`: parental controls are active, so the caller's guardians' restrictions apply.
    public let parentalControls: Bool
    /// `scope`: `childReadOnly` callers may read but not change anything.
    public let scope: TokenClaims.Scope
    /// `jti`: the token's unique id, for logs.
    public let tokenID: String
    /// `exp`, in seconds since the Unix epoch: the caller is authenticated until then.
    public let expiresAt: Int64

    init(claims: TokenClaims) {
        userID = claims.subject
        role = claims.role
        ageBand = claims.ageBand
        parentalControls = claims.parentalControls
        scope = claims.scope
        tokenID = claims.tokenID
        expiresAt = claims.expiresAt
    }
}
