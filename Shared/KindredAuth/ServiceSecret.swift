internal import CSodium

/// A service's own 32-byte secret from its configuration (identity's `KINDRED_IDENTITY_SECRET_KEY`): it seals
/// what must not be readable at rest (signing-key seeds) and keys lookup hashes of what users type.
///
/// Each use gets its own subkey (libsodium's `crypto_kdf`), so the sealing key and the hashing key are never
/// the same bytes. The subkeys live in one buffer this object owns, wiped before its memory is released.
public final class ServiceSecret: Sendable {
    static let byteCount = Int(crypto_kdf_KEYBYTES)
    static let subkeyByteCount = 32

    // Two subkeys, sealing then hashing. Written only in init, wiped and freed only in deinit, read by
    // `withSubkey` in between, so sharing the pointer across threads is safe.
    nonisolated(unsafe) private let subkeys: UnsafeMutableRawBufferPointer

    enum Purpose: Int {
        case sealing = 0
        case hashing = 1
    }

    /// Reads the secret as configured: standard base64 of exactly 32 bytes (`head -c 32 /dev/urandom | base64`).
    public convenience init(base64 text: String) throws(ServiceSecretError) {
        Sodium.initialize()
        var master = [UInt8](repeating: 0, count: Self.byteCount)
        var length = 0
        let status = text.withCString { base64 in
            sodium_base642bin(
                &master, master.count, base64, text.utf8.count, " \n", &length, nil,
                sodium_base64_VARIANT_ORIGINAL)
        }
        defer { sodium_memzero(&master, master.count) }
        guard status == 0, length == Self.byteCount else { throw .notThirtyTwoBytesOfBase64 }
        self.init(master: master)
    }

    /// A new random secret, for tests and tools.
    public static func generate() -> ServiceSecret {
        Sodium.initialize()
        var master = [UInt8](repeating: 0, count: byteCount)
        randombytes_buf(&master, master.count)
        defer { sodium_memzero(&master, master.count) }
        return ServiceSecret(master: master)
    }

    private init(master: [UInt8]) {
        subkeys = .allocate(byteCount: 2 * Self.subkeyByteCount, alignment: 16)
        // crypto_kdf's context: exactly 8 bytes naming what the subkeys are for.
        let context = "kdsecret".utf8.map { CChar(bitPattern: $0) }
        for purpose in [Purpose.sealing, .hashing] {
            let status = crypto_kdf_derive_from_key(
                subkeys.baseAddress!.advanced(by: purpose.rawValue * Self.subkeyByteCount)
                    .assumingMemoryBound(to: UInt8.self),
                Self.subkeyByteCount, UInt64(purpose.rawValue), context, master)
            precondition(status == 0, "crypto_kdf_derive_from_key failed")
        }
    }

    deinit {
        sodium_memzero(subkeys.baseAddress, subkeys.count)
        subkeys.deallocate()
    }

    /// Lends the subkey for `purpose`; valid only inside `body`.
    func withSubkey<Result>(_ purpose: Purpose, _ body: (UnsafePointer<UInt8>) -> Result) -> Result {
        body(
            UnsafePointer(
                subkeys.baseAddress!.advanced(by: purpose.rawValue * Self.subkeyByteCount)
                    .assumingMemoryBound(to: UInt8.self)))
    }

    /// A 32-byte BLAKE2b hash of `text` keyed by this secret: a stable lookup key that reveals nothing about
    /// `text` to someone who reads the table but not the configuration (a dictionary of emails does not help).
    public func keyedHash(_ text: String) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        let bytes = Array(text.utf8)
        withSubkey(.hashing) { key in
            _ = crypto_generichash(
                &digest, digest.count, bytes, UInt64(bytes.count), key, Self.subkeyByteCount)
        }
        return digest
    }
}

/// Why a configured secret was refused.
public enum ServiceSecretError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text is not standard base64 of exactly 32 bytes.
    case notThirtyTwoBytesOfBase64
    /// A sealed value did not open: another secret sealed it, or its bytes or associated data changed.
    case cannotOpen

    public var description: String {
        switch self {
        case .notThirtyTwoBytesOfBase64: "the secret must be standard base64 of exactly 32 bytes"
        case .cannotOpen: "the sealed value does not open with this secret (another secret, or altered bytes)"
        }
    }
}
