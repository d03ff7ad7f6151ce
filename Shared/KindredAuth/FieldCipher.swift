internal import CSodium

/// Encryption of sensitive columns at rest: AES-256-GCM (libsodium's `crypto_aead_aes256gcm`, which needs the
/// CPU's AES-NI and CLMUL) under the keyring's current data key. A sealed value carries the id of the key that
/// sealed it, so values sealed under an older key stay readable while `keys rotate-data` re-seals them, and
/// each value is bound to its place (`context`, e.g. `social.messages.body/<message id>`): a value copied to
/// another row or column does not open.
///
/// Layout: a format byte (1), the key id's length and its ASCII bytes, a random 12-byte nonce, then the
/// ciphertext and its 16-byte tag. The associated data is the context followed by that header, so neither
/// can be swapped. Random 96-bit nonces stay safe for about 2^32 values per key: rotate well before that.
public struct FieldCipher: Sendable {
    static let format: UInt8 = 1
    static let nonceByteCount = Int(crypto_aead_aes256gcm_NPUBBYTES)
    static let tagByteCount = Int(crypto_aead_aes256gcm_ABYTES)

    public let keyring: DataKeyring
    /// Each key of the keyring, expanded once, by id.
    private let expanded: [String: ExpandedDataKey]

    /// A cipher over `keyring`; refused on a CPU without AES-NI, where AES-256-GCM is not available.
    public init(keyring: DataKeyring) throws(FieldCipherError) {
        Sodium.initialize()
        guard crypto_aead_aes256gcm_is_available() == 1 else { throw .aesUnavailable }
        self.keyring = keyring
        expanded = keyring.keys.mapValues(ExpandedDataKey.init)
    }

    /// `plaintext` sealed under the current key for `context`.
    public func seal(_ plaintext: some Collection<UInt8>, context: String) -> [UInt8] {
        let key = keyring.current
        let header = [Self.format, UInt8(key.id.utf8.count)] + Array(key.id.utf8)
        let associated = Array(context.utf8) + header
        let message = Array(plaintext)
        var output =
            header + [UInt8](repeating: 0, count: Self.nonceByteCount + message.count + Self.tagByteCount)
        output.withUnsafeMutableBufferPointer { buffer in
            let nonce = buffer.baseAddress! + header.count
            randombytes_buf(nonce, Self.nonceByteCount)
            var written: UInt64 = 0
            let status = expanded[key.id]!.withState { state in
                crypto_aead_aes256gcm_encrypt_afternm(
                    nonce + Self.nonceByteCount, &written, message, UInt64(message.count), associated,
                    UInt64(associated.count), nil, nonce, state)
            }
            precondition(status == 0, "AES-256-GCM encryption failed")
        }
        return output
    }

    /// What `seal` sealed for `context`; refused when the value is damaged, was sealed for another context, or
    /// names a key the keyring does not hold.
    public func open(_ sealed: [UInt8], context: String) throws(FieldCipherError) -> [UInt8] {
        guard let keyID = Self.keyID(of: sealed) else { throw .malformed }
        guard let key = expanded[keyID] else { throw .unknownKey(keyID) }
        let headerCount = 2 + keyID.utf8.count
        guard sealed.count >= headerCount + Self.nonceByteCount + Self.tagByteCount else { throw .malformed }
        let associated = Array(context.utf8) + sealed[..<headerCount]
        var plaintext = [UInt8](
            repeating: 0, count: sealed.count - headerCount - Self.nonceByteCount - Self.tagByteCount)
        let status = sealed.withUnsafeBufferPointer { sealed in
            key.withState { state in
                let nonce = sealed.baseAddress! + headerCount
                return crypto_aead_aes256gcm_decrypt_afternm(
                    &plaintext, nil, nil, nonce + Self.nonceByteCount,
                    UInt64(sealed.count - headerCount - Self.nonceByteCount), associated,
                    UInt64(associated.count), nonce, state)
            }
        }
        guard status == 0 else { throw .cannotOpen }
        return plaintext
    }

    /// Whether `sealed` is sealed under the current key, so `keys rotate-data` leaves it: false for nil (a value
    /// stored as plaintext before sealing began), for a value sealed under another key, and for anything else.
    public func isCurrent(_ sealed: [UInt8]?) -> Bool {
        sealed.flatMap(Self.keyID(of:)) == keyring.current.id
    }

    /// How many bytes `seal` makes of `plaintextByteCount` bytes under the key `keyID`.
    public static func sealedByteCount(of plaintextByteCount: Int, keyID: String) -> Int {
        2 + keyID.utf8.count + nonceByteCount + plaintextByteCount + tagByteCount
    }

    /// The id of the key that sealed `sealed`; nil when it is not a sealed value.
    public static func keyID(of sealed: [UInt8]) -> String? {
        guard sealed.count >= 2, sealed[0] == format, sealed.count >= 2 + Int(sealed[1]), sealed[1] > 0 else {
            return nil
        }
        return String(decoding: sealed[2..<(2 + Int(sealed[1]))], as: UTF8.self)
    }
}

/// Why a sealed value did not open, or a cipher could not be made.
public enum FieldCipherError: Error, Equatable, CustomStringConvertible {
    case aesUnavailable
    case malformed
    case unknownKey(String)
    case cannotOpen

    public var description: String {
        switch self {
        case .aesUnavailable:
            "this CPU has no AES-NI: AES-256-GCM for data at rest is unavailable; run on a CPU with AES-NI"
        case .malformed: "the value is not a sealed value"
        case .unknownKey(let id):
            "the value was sealed under data key \"\(id)\", which the keyring does not hold"
        case .cannotOpen: "the value does not open: it was damaged, or sealed for another place"
        }
    }
}
