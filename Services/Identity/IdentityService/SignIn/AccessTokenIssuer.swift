import FoundationEssentials
import KindredAuth
import KindredHandlers

/// Who a new access token speaks for: a user as their account row says at issue time, or a configured client.
struct TokenSubject: Sendable, Equatable {
    /// A person's account, or a service or operator client, whose configured id need not be a UUID.
    enum Holder: Sendable, Equatable {
        case user(UserID)
        case client(String)
    }

    let holder: Holder
    let role: TokenClaims.Role
    let ageBand: TokenClaims.AgeBand
    /// `pc`: the account's `parental_controls`, not derived from the band: a minor's family may turn the
    /// controls off.
    let parentalControls: Bool

    /// A service or operator client: no age, so `18+` and no parental controls.
    static func client(_ id: String, role: TokenClaims.Role) -> TokenSubject {
        TokenSubject(holder: .client(id), role: role, ageBand: .adult, parentalControls: false)
    }

    /// The token's `sub` claim: the account id's canonical text, or the client's id as configured.
    var claim: String {
        switch holder {
        case .user(let id): id.description
        case .client(let id): id
        }
    }
}

/// Signs access tokens (DESIGN.md, "Tokens and authorization"): EdDSA JWTs, 15 minutes, scope `full` unless a
/// device mode says otherwise.
struct AccessTokenIssuer: Sendable {
    static let lifetime: Duration = .seconds(15 * 60)

    let keys: SigningKeyRing

    /// A new access token for `subject` issued at `now`, and how many seconds it lives: `lifetime`, but never
    /// past `notAfter` (a parent-mode session's end: a whole second, after `now`). `guardianPinMinor` is the
    /// `guardian_pin` claim of a parent mode proven with that minor's PIN.
    func issue(
        for subject: TokenSubject, scope: TokenClaims.Scope = .full, at now: Date, notAfter: Date? = nil,
        guardianPinMinor: UserID? = nil
    ) async -> (token: String, expiresIn: Int64) {
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        var expiresAt = issuedAt + Int64(Self.lifetime.components.seconds)
        if let notAfter { expiresAt = min(expiresAt, Int64(notAfter.timeIntervalSince1970.rounded(.down))) }
        let claims = TokenClaims(
            subject: subject.claim, role: subject.role, ageBand: subject.ageBand,
            parentalControls: subject.parentalControls, scope: scope,
            issuedAt: issuedAt, expiresAt: expiresAt, tokenID: Self.tokenID(at: now),
            guardianPinMinor: guardianPinMinor?.description)
        return (await keys.signer().sign(claims), expiresAt - issuedAt)
    }

    /// A new `jti`, unique per token: a UUIDv7 from the system generator. Foundation's `UUID()` opens, reads
    /// and closes /dev/urandom on every call on Linux, 3% of identity's samples under load.
    static func tokenID(at now: Date) -> String { UUIDv7.generate(at: now) }
}
