public import KindredAuth

/// The data keys every service's tests seal columns with, as a keyring midway through a rotation: "test-2"
/// seals, "test-1" (`old`) still opens what it sealed.
public enum TestDataKeys {
    public static let text =
        "test-2:\(Base64.encode([UInt8](repeating: 2, count: 32))),test-1:\(Base64.encode([UInt8](repeating: 1, count: 32)))"
    public static let cipher = try! FieldCipher(keyring: try! DataKeyring(text))
    /// The key before the rotation, alone: what it seals, `cipher` opens and `keys rotate-data` re-seals.
    public static let old = try! FieldCipher(
        keyring: try! DataKeyring("test-1:" + Base64.encode([UInt8](repeating: 1, count: 32))))
}
