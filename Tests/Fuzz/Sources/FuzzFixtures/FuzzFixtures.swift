import KindredAuth

/// What the fuzz targets and the seed writer share: one signing key made from a fixed seed, a fixed clock,
/// and claims valid at that clock, so that a seed token written once stays valid for every run.
public enum FuzzFixtures {
    /// The key every fuzzed token is signed with (never used anywhere but here).
    public static let signingKey = try! SigningKey(seed: Array(repeating: 0x4B, count: 32))

    /// The verifiers' "now": 2026-11-25 00:00:00 UTC.
    public static let now: Int64 = 1_795_564_800

    /// A clock that always reads `now`.
    public static let clock = TokenClock { now }

    /// A parent's full-access claims, issued a minute before `now` and valid for 15 minutes.
    public static let claims = TokenClaims(
        subject: "0193a5c2-7d1e-7000-8000-00000000f022", role: .user, ageBand: .adult,
        parentalControls: false,
        scope: .full, issuedAt: now - 60, expiresAt: now + 840, tokenID: "fuzz-token-1")

    /// `claims` signed with `signingKey`.
    public static var token: String { TokenSigner(key: signingKey).sign(claims) }

    /// A verifier that accepts `signingKey` and reads the time from `clock`.
    public static func verifier() -> TokenVerifier {
        TokenVerifier(keys: [signingKey.verificationKey], clock: clock)
    }
}
