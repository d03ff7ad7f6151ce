internal import CSodium

/// A random single-use or refresh token: 256 bits, sent to the user as base64url text and stored only as its
/// hash, so a leaked table row cannot be used as a token.
public struct OpaqueToken: Sendable, Hashable {
    /// What the user receives (in a link, or as a refresh token).
    public let text: String

    /// A new random token.
    public static func generate() -> OpaqueToken {
        Sodium.initialize()
        var bytes = [UInt8](repeating: 0, count: 32)
        randombytes_buf(&bytes, bytes.count)
        return OpaqueToken(text: Base64URL.encode(bytes))
    }

    /// A token as the user sent it back.
    public init(text: String) {
        self.text = text
    }

    /// SHA-256 of the text: the only form a database keeps. The token is already 256 random bits, so a fast
    /// hash is enough; there is no password to stretch.
    public var storageHash: [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        let bytes = Array(text.utf8)
        _ = crypto_hash_sha256(&digest, bytes, UInt64(bytes.count))
        return digest
    }
}
