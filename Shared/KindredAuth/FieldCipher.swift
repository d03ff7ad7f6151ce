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
    /// The current key expanded, and its header (format byte, id length, id): what every seal writes and most
    /// opens find, without hashing the id into `expanded` each time.
    private let current: ExpandedDataKey
    private let currentHeader: [UInt8]

    /// A cipher over `keyring`; refused on a CPU without AES-NI, where AES-256-GCM is not available.
    public init(keyring: DataKeyring) throws(FieldCipherError) {
        Sodium.initialize()
        guard crypto_aead_aes256gcm_is_available() == 1 else { throw .aesUnavailable }
        self.keyring = keyring
        expanded = keyring.keys.mapValues(ExpandedDataKey.init)
        current = expanded[keyring.current.id]!
        currentHeader = [Self.format, UInt8(keyring.current.id.utf8.count)] + Array(keyring.current.id.utf8)
    }

    /// `plaintext` sealed under the current key for `context`.
    public func seal(_ plaintext: some Collection<UInt8>, context: String) -> [UInt8] {
        let header = currentHeader
        let plaintextCount = plaintext.count
        let sealedCount = header.count + Self.nonceByteCount + plaintextCount + Self.tagByteCount
        // One allocation: the header, nonce and ciphertext are written in place, the plaintext is read where it
        // lies (or copied once when it is not contiguous), and the associated data lives on the stack.
        return [UInt8](unsafeUninitializedCapacity: sealedCount) { output, initialized in
            let base = output.baseAddress!
            header.withUnsafeBufferPointer { base.update(from: $0.baseAddress!, count: $0.count) }
            let nonce = base + header.count
            randombytes_buf(nonce, Self.nonceByteCount)
            var written: UInt64 = 0
            let writtenHeader = UnsafeBufferPointer(start: base, count: header.count)
            let status = Self.withAssociatedData(context: context, header: writtenHeader) { associated in
                Self.withContiguousBytes(of: plaintext) { message in
                    crypto_aead_aes256gcm_encrypt_afternm(
                        nonce + Self.nonceByteCount, &written, message.baseAddress, UInt64(message.count),
                        associated.baseAddress, UInt64(associated.count), nil, nonce, current.state)
                }
            }
            precondition(status == 0, "AES-256-GCM encryption failed")
            initialized = sealedCount
        }
    }

    /// What `seal` sealed for `context`; refused when the value is damaged, was sealed for another context, or
    /// names a key the keyring does not hold.
    public func open(_ sealed: [UInt8], context: String) throws(FieldCipherError) -> [UInt8] {
        let key = try key(opening: sealed)
        let headerCount = 2 + Int(sealed[1])
        guard sealed.count >= headerCount + Self.nonceByteCount + Self.tagByteCount else { throw .malformed }
        let plaintextCount = sealed.count - headerCount - Self.nonceByteCount - Self.tagByteCount
        var status: Int32 = 0
        let plaintext = sealed.withUnsafeBufferPointer { sealed in
            [UInt8](unsafeUninitializedCapacity: plaintextCount) { plaintext, initialized in
                let nonce = sealed.baseAddress! + headerCount
                let header = UnsafeBufferPointer(rebasing: sealed[..<headerCount])
                status = Self.withAssociatedData(context: context, header: header) { associated in
                    crypto_aead_aes256gcm_decrypt_afternm(
                        plaintext.baseAddress, nil, nil, nonce + Self.nonceByteCount,
                        UInt64(sealed.count - headerCount - Self.nonceByteCount), associated.baseAddress,
                        UInt64(associated.count), nonce, key.state)
                }
                initialized = status == 0 ? plaintextCount : 0
            }
        }
        guard status == 0 else { throw .cannotOpen }
        return plaintext
    }

    /// The expanded key whose id `sealed`'s header names: the current key found by comparing bytes, any other
    /// through `expanded`.
    private func key(opening sealed: [UInt8]) throws(FieldCipherError) -> ExpandedDataKey {
        guard let keyID = Self.keyIDBytes(of: sealed) else { throw .malformed }
        if keyID.elementsEqual(currentHeader[2...]) { return current }
        let id = String(decoding: keyID, as: UTF8.self)
        guard let key = expanded[id] else { throw .unknownKey(id) }
        return key
    }

    /// Runs `body` with the context's bytes followed by `header`, the associated data of a sealed value, on the
    /// stack.
    private static func withAssociatedData<Result>(
        context: String, header: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        var context = context
        return context.withUTF8 { contextBytes in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: contextBytes.count + header.count) {
                associated in
                _ = associated.initialize(fromContentsOf: contextBytes)
                _ = associated[contextBytes.count...].initialize(fromContentsOf: header)
                return body(UnsafeBufferPointer(associated))
            }
        }
    }

    /// Runs `body` over `bytes` in contiguous memory: in place when the collection has it, else copied once.
    private static func withContiguousBytes<Result>(
        of bytes: some Collection<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        if let result = bytes.withContiguousStorageIfAvailable(body) { return result }
        return Array(bytes).withUnsafeBufferPointer(body)
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
        keyIDBytes(of: sealed).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of the id of the key that sealed `sealed`; nil when it is not a sealed value.
    private static func keyIDBytes(of sealed: [UInt8]) -> ArraySlice<UInt8>? {
        guard sealed.count >= 2, sealed[0] == format, sealed.count >= 2 + Int(sealed[1]), sealed[1] > 0 else {
            return nil
        }
        return sealed[2..<(2 + Int(sealed[1]))]
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
