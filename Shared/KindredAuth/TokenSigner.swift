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
        header.append("alg", .string(JWSHeader.edDSA))
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

/// The JWS header members a Kindred verifier reads.
struct JWSHeader {
    /// The only algorithm Kindred signs or accepts.
    static let edDSA = "EdDSA"

    /// `alg`.
    let algorithm: String
    /// `kid`, naming the key that signed the token, if present.
    let keyID: String?

    /// Reads a decoded header; nil unless it is a flat object with a string `alg`.
    ///
    /// A `crit` member names extensions the token requires its reader to understand (RFC 7515 §4.1.11);
    /// Kindred understands none, so such a header is refused rather than half-read.
    init?(jsonBytes: [UInt8]) {
        guard let members = FlatJSONReader.object(from: jsonBytes),
            case .string(let algorithm)? = members["alg"],
            members["crit"] == nil
        else { return nil }
        self.algorithm = algorithm
        switch members["kid"] {
        case .string(let keyID)?: self.keyID = keyID
        case nil: self.keyID = nil
        default: return nil
        }
    }
}
