internal import CSodium

/// The few libsodium calls this module makes, with its sizes, behind Swift types.
enum Sodium {
    static let publicKeyByteCount = Int(crypto_sign_PUBLICKEYBYTES)
    static let secretKeyByteCount = Int(crypto_sign_SECRETKEYBYTES)
    static let seedByteCount = Int(crypto_sign_SEEDBYTES)
    static let signatureByteCount = Int(crypto_sign_BYTES)

    // sodium_init picks the fastest implementations and seeds the random generator; it is safe to call
    // repeatedly, and a static `let` runs it once, thread-safely, before the first key is made or checked.
    private static let initialized: Bool = sodium_init() >= 0

    /// Makes sure libsodium is initialized; it only fails if the system has no randomness source.
    static func initialize() {
        precondition(initialized, "libsodium could not be initialized")
    }

    /// BLAKE2b-256 of `bytes`, handed to `body` without copying.
    static func withHash<R>(of bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        withUnsafeTemporaryAllocation(byteCount: Int(crypto_generichash_BYTES), alignment: 8) { output in
            _ = crypto_generichash(
                output.baseAddress!.assumingMemoryBound(to: UInt8.self), output.count,
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(bytes.count), nil, 0)
            return body(UnsafeRawBufferPointer(output))
        }
    }

    /// Whether `signature` is `publicKey`'s Ed25519 signature of `message`.
    static func verify(signature: [UInt8], message: UnsafeRawBufferPointer, publicKey: [UInt8]) -> Bool {
        precondition(signature.count == signatureByteCount && publicKey.count == publicKeyByteCount)
        return crypto_sign_verify_detached(
            signature, message.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(message.count),
            publicKey
        ) == 0
    }
}

/// A 256-bit hash, stored inline so it hashes and compares without touching the heap.
struct TokenDigest: Hashable {
    private let words: (high: UInt64, second: UInt64, third: UInt64, low: UInt64)

    /// The BLAKE2b-256 hash of `bytes`.
    init(hashing bytes: UnsafeRawBufferPointer) {
        words = Sodium.withHash(of: bytes) { digest in
            (
                digest.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                digest.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                digest.loadUnaligned(fromByteOffset: 16, as: UInt64.self),
                digest.loadUnaligned(fromByteOffset: 24, as: UInt64.self)
            )
        }
    }

    static func == (lhs: TokenDigest, rhs: TokenDigest) -> Bool {
        lhs.words == rhs.words
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.high)
        hasher.combine(words.second)
        hasher.combine(words.third)
        hasher.combine(words.low)
    }
}
