import CSodium
import FoundationEssentials

/// The data keys of one service, from its environment, never from the database:
/// `KINDRED_DATA_KEYS=<id>:<base64 32-byte key>[,<id>:<key>...]` or the same text in the file
/// `KINDRED_DATA_KEYS_FILE` names. The first key seals; the others still open what they sealed, until
/// `keys rotate-data` has re-sealed it under the first. Ids are 1 to 32 letters, digits, `-` or `_`.
public struct DataKeyring: Sendable {
    /// A data key; its description and reflection show the id only, never the key.
    public struct Key: Sendable, CustomStringConvertible, CustomReflectable {
        public let id: String
        let bytes: [UInt8]

        public var description: String { "data key \(id)" }
        public var customMirror: Mirror { Mirror(self, children: ["id": id]) }
    }

    public let current: Key
    let keys: [String: Key]

    /// The keyring `text` spells; a one-line reason when it is not one.
    public init(_ text: String) throws(DataKeyringError) {
        var ordered: [Key] = []
        for entry in text.split(separator: ",").map({ String($0.filter { !$0.isWhitespace }) })
        where !entry.isEmpty {
            let parts = entry.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, Self.isKeyID(parts[0]) else { throw .badEntry }
            guard let bytes = Base64.decode(parts[1]), bytes.count == Int(crypto_aead_aes256gcm_KEYBYTES)
            else {
                throw .badKey(parts[0])
            }
            guard !ordered.contains(where: { $0.id == parts[0] }) else { throw .duplicateID(parts[0]) }
            ordered.append(Key(id: parts[0], bytes: bytes))
        }
        guard let first = ordered.first else { throw .empty }
        current = first
        keys = Dictionary(uniqueKeysWithValues: ordered.map { ($0.id, $0) })
    }

    /// The keyring the environment configures (`KINDRED_DATA_KEYS`, else the file `KINDRED_DATA_KEYS_FILE`).
    public static func configured(in environment: [String: String]) throws(DataKeyringError) -> DataKeyring {
        if let text = environment["KINDRED_DATA_KEYS"] { return try DataKeyring(text) }
        guard let path = environment["KINDRED_DATA_KEYS_FILE"] else { throw .missing }
        guard let contents = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw .unreadable(path)
        }
        return try DataKeyring(contents)
    }

    /// A new random key, as `<id>:<base64>` for the keyring's text.
    public static func generateEntry(id: String) -> String {
        Sodium.initialize()
        var bytes = [UInt8](repeating: 0, count: Int(crypto_aead_aes256gcm_KEYBYTES))
        randombytes_buf(&bytes, bytes.count)
        return "\(id):\(Base64.encode(bytes))"
    }

    func key(_ id: String) -> Key? { keys[id] }

    static func isKeyID(_ text: String) -> Bool {
        (1...32).contains(text.utf8.count)
            && text.utf8.allSatisfy {
                $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
            }
    }
}

/// Why the configured data keys cannot be used; each says what to fix.
public enum DataKeyringError: Error, Equatable, CustomStringConvertible {
    case missing
    case unreadable(String)
    case empty
    case badEntry
    case badKey(String)
    case duplicateID(String)

    public var description: String {
        switch self {
        case .missing:
            "no data keys: set KINDRED_DATA_KEYS or KINDRED_DATA_KEYS_FILE (<id>:<base64 32-byte key>)"
        case .unreadable(let path): "cannot read the data keys file \(path)"
        case .empty: "the data keys are empty: give at least one <id>:<base64 32-byte key>"
        case .badEntry:
            "a data key entry is not <id>:<base64 key> with an id of 1 to 32 letters, digits, - or _"
        case .badKey(let id): "data key \"\(id)\" is not 32 bytes of base64"
        case .duplicateID(let id): "data key id \"\(id)\" is given twice"
        }
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (48...57).contains(self) || (65...90).contains(self) || (97...122).contains(self)
    }
}
