import Foundation
import KindredAuth

/// The crafted tokens, built the way KindredAuth's README describes a token: compact JWS, `alg` EdDSA, a
/// `kid` derived from the key. `signer` is identity's own current key, so only what each case changes is wrong.
struct MatrixTokens {
    let signer: SigningKey
    /// The owner's real access token, as identity issued it.
    let owner: String
    let ownerID: String

    var malformed: String { "not-a-token.at.all" }

    /// The owner's token with its claims rewritten to role admin: the signature no longer matches.
    var tampered: String {
        let parts = owner.split(separator: ".")
        return [
            String(parts[0]), Self.base64URL(Array(claims(role: .admin).utf8Claims.utf8)), String(parts[2]),
        ]
        .joined(separator: ".")
    }

    /// An admin's claims under `alg: none` and no signature, naming identity's real key.
    var algNone: String {
        let header = #"{"alg":"none","kid":"\#(signer.keyID)","typ":"JWT"}"#
        return Self.base64URL(Array(header.utf8)) + "."
            + Self.base64URL(Array(claims(role: .admin).utf8Claims.utf8))
            + "."
    }

    /// The owner's claims, signed by identity's key, expired ten minutes ago (past the 60 s leeway).
    var expired: String {
        let now = Int64(Date().timeIntervalSince1970)
        return TokenSigner(key: signer).sign(claims(issuedAt: now - 1_500, expiresAt: now - 600))
    }

    /// The owner's claims signed by a key identity never published.
    var unknownKey: String { TokenSigner(key: SigningKey()).sign(claims()) }

    /// The owner's claims with scope `child_readonly`, as EnterChildMode issues them.
    var childMode: String { TokenSigner(key: signer).sign(claims(scope: .childReadOnly)) }

    private func claims(
        role: TokenClaims.Role = .user, scope: TokenClaims.Scope = .full, issuedAt: Int64? = nil,
        expiresAt: Int64? = nil
    ) -> TokenClaims {
        let now = Int64(Date().timeIntervalSince1970)
        return TokenClaims(
            subject: ownerID, role: role, ageBand: .adult, parentalControls: false, scope: scope,
            issuedAt: issuedAt ?? now, expiresAt: expiresAt ?? now + 900,
            tokenID: UUID().uuidString.lowercased())
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

extension TokenClaims {
    /// The claims as JSON, for a tampered or unsigned token (what identity signs is KindredAuth's business).
    fileprivate var utf8Claims: String {
        #"{"sub":"\#(subject)","role":"\#(role.rawValue)","age_band":"\#(ageBand.rawValue)","pc":\#(parentalControls),"#
            + #""scope":"\#(scope.rawValue)","iat":\#(issuedAt),"exp":\#(expiresAt),"jti":"\#(tokenID)"}"#
    }
}
