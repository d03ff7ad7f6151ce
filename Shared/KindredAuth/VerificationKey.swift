/// The public half of a signing key, named by its key id: what verifiers hold.
public struct VerificationKey: Sendable, Hashable {
    /// The `kid` a token names to say which key signed it: 16 base64url characters derived from the key.
    public let keyID: String
    /// The 32-byte Ed25519 public key.
    public let publicKey: [UInt8]

    /// Wraps a published public key; its key id is derived from it, never taken on trust.
    public init(publicKey: [UInt8]) throws(KeyMaterialError) {
        guard publicKey.count == Sodium.publicKeyByteCount else {
            throw KeyMaterialError(expectedByteCount: Sodium.publicKeyByteCount, actualByteCount: publicKey.count)
        }
        self.init(checkedPublicKey: publicKey)
    }

    init(checkedPublicKey publicKey: [UInt8]) {
        Sodium.initialize()
        self.publicKey = publicKey
        // The first 96 bits of BLAKE2b-256: short enough for a header, far too long to collide by chance.
        keyID = publicKey.withUnsafeBytes { bytes in
            Sodium.withHash(of: bytes) { digest in Base64URL.encode(digest.prefix(12)) }
        }
    }
}
