import FoundationEssentials
import KindredAuth

/// Who a new access token speaks for: a user as their account row says at issue time, or a configured client.
struct TokenSubject: Sendable, Equatable {
    let subject: String
    let role: TokenClaims.Role
    let ageBand: TokenClaims.AgeBand
    /// `pc`: the account's `parental_controls`, not derived from the band: a minor's family may turn the
    /// controls off.
    let parentalControls: Bool

    /// A service or operator client: no age, so `18+` and no parental controls.
    static func client(_ id: String, role: TokenClaims.Role) -> TokenSubject {
        TokenSubject(subject: id, role: role, ageBand: .adult, parentalControls: false)
    }
}

/// Signs access tokens (DESIGN.md, "Tokens and authorization"): EdDSA JWTs, 15 minutes, scope `full`.
struct AccessTokenIssuer: Sendable {
    static let lifetime: Duration = .seconds(15 * 60)

    let keys: SigningKeyRing
    var clock: TokenClock = .system

    /// A new access token for `subject`, and how many seconds it lives.
    func issue(for subject: TokenSubject) async -> (token: String, expiresIn: Int64) {
        let now = clock.now
        let lifetime = Int64(Self.lifetime.components.seconds)
        let claims = TokenClaims(
            subject: subject.subject, role: subject.role, ageBand: subject.ageBand,
            parentalControls: subject.parentalControls, scope: .full, issuedAt: now,
            expiresAt: now + lifetime,
            tokenID: UUID().uuidString.lowercased())
        return (await keys.signer().sign(claims), lifetime)
    }
}
