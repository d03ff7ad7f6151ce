internal import CSodium

/// A data key's AES-256 key schedule and GHASH table (`crypto_aead_aes256gcm_beforenm`), computed once when the
/// cipher is made instead of for every field: a page of 50 sealed names, or the day's sessions a usage upload
/// opens, ran that expansion once per value. Immutable after init, so many threads may seal and open with it
/// at once; its memory is wiped when the last cipher holding it goes.
final class ExpandedDataKey: @unchecked Sendable {
    /// For libsodium's `_afternm` functions; read only, and valid while a cipher holds this key (through every
    /// seal and open it makes).
    let state: UnsafeMutablePointer<crypto_aead_aes256gcm_state>

    /// Expands `key`; the caller has checked that AES-256-GCM is available on this CPU.
    init(_ key: DataKeyring.Key) {
        // libsodium declares the state CRYPTO_ALIGN(16): allocated so, whatever Swift infers of the struct.
        state = UnsafeMutableRawPointer.allocate(
            byteCount: crypto_aead_aes256gcm_statebytes(), alignment: 16
        ).bindMemory(to: crypto_aead_aes256gcm_state.self, capacity: 1)
        let status = key.bytes.withUnsafeBufferPointer {
            crypto_aead_aes256gcm_beforenm(state, $0.baseAddress!)
        }
        precondition(status == 0, "AES-256-GCM key expansion failed")
    }

    deinit {
        sodium_memzero(state, crypto_aead_aes256gcm_statebytes())
        state.deallocate()
    }
}
