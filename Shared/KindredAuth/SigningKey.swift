internal import CSodium

/// An Ed25519 key pair that signs access tokens; only the identity service holds one.
///
/// The secret half lives in one buffer this object owns: it is never copied into a Swift array, and it is
/// wiped before its memory is released.
public final class SigningKey: Sendable {
    /// The public half, with its key id: what `GetSigningKeys` publishes.
    public let verificationKey: VerificationKey

    // Ed25519 secret key as libsodium lays it out: the 32-byte seed, then the 32-byte public key. Written
    // only in init, read only by signing and `withSeed`, wiped and freed only in deinit, so sharing the
    // pointer across threads is safe.
    nonisolated(unsafe) private let secretKey: UnsafeMutableRawBufferPointer

    /// The key id (`kid`) tokens signed by this key carry.
    public var keyID: String { verificationKey.keyID }

    /// Generates a new random key pair.
    public convenience init() {
        self.init { publicKey, secretKey in
            crypto_sign_keypair(publicKey, secretKey)
        }
    }

    /// Recreates the key pair stored as its 32-byte seed (see `withSeed`).
    public convenience init(seed: [UInt8]) throws(KeyMaterialError) {
        guard seed.count == Sodium.seedByteCount else {
            throw KeyMaterialError(expectedByteCount: Sodium.seedByteCount, actualByteCount: seed.count)
        }
        self.init { publicKey, secretKey in
            crypto_sign_seed_keypair(publicKey, secretKey, seed)
        }
    }

    private init(
        making makeKeyPair: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>) -> Int32
    ) {
        Sodium.initialize()
        secretKey = .allocate(byteCount: Sodium.secretKeyByteCount, alignment: 16)
        var publicKey = [UInt8](repeating: 0, count: Sodium.publicKeyByteCount)
        let status = makeKeyPair(&publicKey, secretKey.baseAddress!.assumingMemoryBound(to: UInt8.self))
        precondition(status == 0, "Ed25519 key generation failed")
        verificationKey = VerificationKey(checkedPublicKey: publicKey)
    }

    deinit {
        sodium_memzero(secretKey.baseAddress, secretKey.count)
        secretKey.deallocate()
    }

    /// Lends the 32-byte seed that recreates this key, for the identity service to store encrypted.
    ///
    /// The bytes are valid only inside `body`; whatever copy `body` keeps is the caller's to protect.
    public func withSeed<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(rebasing: secretKey.prefix(Sodium.seedByteCount)))
    }

    /// The Ed25519 signature of `message`.
    func sign(_ message: [UInt8]) -> [UInt8] {
        var signature = [UInt8](repeating: 0, count: Sodium.signatureByteCount)
        let status = crypto_sign_detached(
            &signature, nil, message, UInt64(message.count),
            secretKey.baseAddress!.assumingMemoryBound(to: UInt8.self))
        precondition(status == 0, "Ed25519 signing failed")
        return signature
    }
}

/// Key bytes of the wrong length were given where a seed or a public key was expected.
public struct KeyMaterialError: Error, Sendable, Hashable, CustomStringConvertible {
    /// How many bytes the key needs.
    public let expectedByteCount: Int
    /// How many were given.
    public let actualByteCount: Int

    /// One line for the log.
    public var description: String {
        "expected \(expectedByteCount) bytes of key material, got \(actualByteCount)"
    }
}

/// The public half of a signing key, named by its key id: what verifiers hold.
public struct VerificationKey: Sendable, Hashable {
    /// The `kid` a token names to say which key signed it: 16 base64url characters derived from the key.
    public let keyID: String
    /// The 32-byte Ed25519 public key.
    public let publicKey: [UInt8]

    /// Wraps a published public key; its key id is derived from it, never taken on trust.
    public init(publicKey: [UInt8]) throws(KeyMaterialError) {
        guard publicKey.count == Sodium.publicKeyByteCount else {
            throw KeyMaterialError(
                expectedByteCount: Sodium.publicKeyByteCount, actualByteCount: publicKey.count)
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
