/// Custom gRPC metadata: ordered key/value pairs with lower-case keys; keys ending in `-bin` carry bytes.
public struct Metadata: Sendable, Equatable, Sequence {
    /// A metadata value: text, or bytes for a `-bin` key (base64 on the wire).
    public enum Value: Sendable, Equatable {
        case text(String)
        case binary([UInt8])
    }

    /// One key/value pair.
    public struct Entry: Sendable, Equatable {
        /// The lower-cased key.
        public var key: String
        /// The value.
        public var value: Value
    }

    private var entries: [Entry] = []

    /// Creates empty metadata.
    public init() {}

    /// Creates metadata from text pairs, in order: `Metadata(["x-client": "ios"])`.
    public init(_ pairs: KeyValuePairs<String, String>) {
        for (key, value) in pairs { add(key, value) }
    }

    /// Appends a text value (a `-bin` key stores its UTF-8 bytes).
    public mutating func add(_ key: String, _ value: String) {
        let key = Self.lowercased(key)
        entries.append(
            Entry(key: key, value: Self.isBinaryKey(key) ? .binary(Array(value.utf8)) : .text(value)))
    }

    /// Appends a binary value; the key gets the `-bin` suffix if it lacks it.
    public mutating func add(_ key: String, binary value: [UInt8]) {
        var key = Self.lowercased(key)
        if !Self.isBinaryKey(key) { key += "-bin" }
        entries.append(Entry(key: key, value: .binary(value)))
    }

    /// Appends a value exactly as given (used by the wire decoder).
    mutating func append(_ entry: Entry) {
        entries.append(entry)
    }

    /// Removes every value for a key.
    public mutating func removeAll(forKey key: String) {
        let key = Self.lowercased(key)
        entries.removeAll { $0.key == key }
    }

    /// The first text value for a key.
    public subscript(_ key: String) -> String? {
        let key = Self.lowercased(key)
        for entry in entries where entry.key == key {
            if case .text(let text) = entry.value { return text }
        }
        return nil
    }

    /// The first binary value for a `-bin` key.
    public subscript(binary key: String) -> [UInt8]? {
        let key = Self.lowercased(key)
        for entry in entries where entry.key == key {
            if case .binary(let bytes) = entry.value { return bytes }
        }
        return nil
    }

    /// Every value for a key, in order.
    public func values(forKey key: String) -> [Value] {
        let key = Self.lowercased(key)
        return entries.filter { $0.key == key }.map(\.value)
    }

    /// The number of pairs.
    public var count: Int { entries.count }

    /// Whether there are no pairs.
    public var isEmpty: Bool { entries.isEmpty }

    public func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }

    /// `key` in lower case; a key already in lower case (every key the services look up) is returned as it is,
    /// without the copy `lowercased()` makes: a call looks up three.
    static func lowercased(_ key: String) -> String {
        key.utf8.contains { (65...90).contains($0) || $0 >= 128 } ? key.lowercased() : key
    }

    static func isBinaryKey(_ key: String) -> Bool { key.hasSuffix("-bin") }
}
