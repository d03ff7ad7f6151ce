public import KindredAuth

extension FieldCipher {
    /// The cipher over `service`'s data keys as the environment configures them (`KINDRED_DATA_KEYS`, or the
    /// file `KINDRED_DATA_KEYS_FILE` names); a one-line start-up error when there are none, they are malformed
    /// or the CPU lacks AES-NI.
    public static func configured(for service: String, in environment: [String: String]) throws(StartupError)
        -> FieldCipher
    {
        do {
            return try FieldCipher(keyring: try DataKeyring.configured(in: environment))
        } catch {
            throw StartupError("\(service)'s data keys: \(error)")
        }
    }
}
