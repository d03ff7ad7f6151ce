/// Issues access tokens: compact JWS (RFC 7515) with `alg` EdDSA (RFC 8037), signed by one key.
///
/// Ed25519 signatures are deterministic, so the same key and claims always give the same token, byte for byte.
public struct TokenSigner: Sendable {
    /// The key tokens are signed with.
    public let key: SigningKey

    // The encoded header is the same for every token this signer issues.
    private let encodedHeader: String

    /// Creates a signer that signs with `key` and names it in each token's `kid`.
    public init(key: SigningKey) {
        self.key = key
        var header = FlatJSONWriter()
        header.append("alg", .string(JWSHeader.algorithm))
        header.append("kid", .string(key.keyID))
        header.append("typ", .string("JWT"))
        encodedHeader = Base64URL.encode(header.finish())
    }

    /// The signed token for `claims`, as `header.payload.signature`.
    public func sign(_ claims: TokenClaims) -> String {
        let signingInput = encodedHeader + "." + Base64URL.encode(claims.jsonBytes)
        let signature = key.sign(Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }
}
