internal import CSodium

extension ServiceSecret {
    private static let nonceByteCount = Int(crypto_aead_xchacha20poly1305_ietf_NPUBBYTES)
    private static let tagByteCount = Int(crypto_aead_xchacha20poly1305_ietf_ABYTES)

    /// Seals a signing key's seed for storage: XChaCha20-Poly1305 under this secret, bound to the key id, as
    /// a random 24-byte nonce followed by the ciphertext and its tag. The seed never leaves libsodium's buffers.
    public func seal(_ key: SigningKey) -> [UInt8] {
        let associatedData = Array(key.keyID.utf8)
        return key.withSeed { seed in
            seal(seed, associatedData: associatedData)
        }
    }

    /// Opens what `seal(_:)` stored for `keyID`; the key is recreated from its seed and must have that id.
    public func openSigningKey(_ sealed: [UInt8], keyID: String) throws(ServiceSecretError) -> SigningKey {
        var seed = try open(sealed, associatedData: Array(keyID.utf8))
        defer { sodium_memzero(&seed, seed.count) }
        guard let key = try? SigningKey(seed: seed), key.keyID == keyID else { throw .cannotOpen }
        return key
    }

    func seal(_ plaintext: UnsafeRawBufferPointer, associatedData: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Self.nonceByteCount + plaintext.count + Self.tagByteCount)
        output.withUnsafeMutableBufferPointer { output in
            let nonce = output.baseAddress!
            randombytes_buf(nonce, Self.nonceByteCount)
            let status = withSubkey(.sealing) { key in
                crypto_aead_xchacha20poly1305_ietf_encrypt(
                    nonce + Self.nonceByteCount, nil,
                    plaintext.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt64(plaintext.count),
                    associatedData, UInt64(associatedData.count), nil, nonce, key)
            }
            precondition(status == 0, "XChaCha20-Poly1305 encryption failed")
        }
        return output
    }

    func open(_ sealed: [UInt8], associatedData: [UInt8]) throws(ServiceSecretError) -> [UInt8] {
        guard sealed.count >= Self.nonceByteCount + Self.tagByteCount else { throw .cannotOpen }
        var plaintext = [UInt8](repeating: 0, count: sealed.count - Self.nonceByteCount - Self.tagByteCount)
        let status = sealed.withUnsafeBufferPointer { sealed in
            withSubkey(.sealing) { key in
                crypto_aead_xchacha20poly1305_ietf_decrypt(
                    &plaintext, nil, nil,
                    sealed.baseAddress! + Self.nonceByteCount, UInt64(sealed.count - Self.nonceByteCount),
                    associatedData, UInt64(associatedData.count), sealed.baseAddress!, key)
            }
        }
        guard status == 0 else { throw .cannotOpen }
        return plaintext
    }
}
