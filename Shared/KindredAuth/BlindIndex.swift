internal import CSodium

/// A keyed hash of a sensitive value, for a lookup or a uniqueness rule that needs the plaintext while the
/// column itself is sealed (`FieldCipher`): BLAKE2b-256 keyed with a key of its own (never a data key), over
/// the context and the value, so equal values in one context match and nothing else does. Without the key
/// the index reveals only which rows share a value.
public struct BlindIndex: Sendable {
    let key: [UInt8]

    /// An index under `key` (32 bytes).
    public init(key: [UInt8]) {
        precondition(key.count == Int(crypto_generichash_KEYBYTES), "a blind index key is 32 bytes")
        Sodium.initialize()
        self.key = key
    }

    /// The 32-byte index of `value` in `context`.
    public func index(of value: some Collection<UInt8>, context: String) -> [UInt8] {
        let input = Array(context.utf8) + [0] + Array(value)
        var output = [UInt8](repeating: 0, count: Int(crypto_generichash_BYTES))
        _ = crypto_generichash(&output, output.count, input, UInt64(input.count), key, key.count)
        return output
    }
}
