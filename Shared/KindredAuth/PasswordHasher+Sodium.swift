internal import CSodium

extension PasswordHasher {
    /// libsodium's PHC string for `password`, or nil when the memory the cost asks for is not available.
    static func computeHash(_ password: String, cost: Cost) -> String? {
        var output = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        let status = password.utf8CString.withUnsafeBufferPointer { text in
            crypto_pwhash_str_alg(
                &output, text.baseAddress!, UInt64(text.count - 1), UInt64(cost.iterations),
                cost.memoryKiB * 1024, crypto_pwhash_ALG_ARGON2ID13)
        }
        guard status == 0 else { return nil }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Whether `password` hashes to `stored`, in constant time; false for a malformed `stored`.
    static func matches(_ password: String, _ stored: String) -> Bool {
        // utf8CString always holds at least the terminating NUL, so the base address exists; the length
        // passed excludes it and includes any NUL inside the password.
        password.utf8CString.withUnsafeBufferPointer { text in
            crypto_pwhash_str_verify(stored, text.baseAddress!, UInt64(text.count - 1)) == 0
        }
    }

    /// Whether `stored` was made with other parameters (or another algorithm) than `cost`.
    static func needsRehash(_ stored: String, cost: Cost) -> Bool {
        crypto_pwhash_str_needs_rehash(stored, UInt64(cost.iterations), cost.memoryKiB * 1024) != 0
    }
}
