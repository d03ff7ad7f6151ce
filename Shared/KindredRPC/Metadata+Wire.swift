import KindredAuth

/// How metadata maps to and from HTTP/2 header fields.
extension Metadata {
    /// Whether a header is transport-owned and never surfaces as (or is sent from) custom metadata.
    static func isReserved(_ key: String) -> Bool {
        if key.hasPrefix(":") || key.hasPrefix("grpc-") { return true }
        switch key {
        case "content-type", "te", "connection", "keep-alive", "proxy-connection", "transfer-encoding",
            "upgrade", "host", "content-length":
            return true
        default:
            return false
        }
    }

    /// Whether a key is a valid gRPC metadata key: `[0-9a-z_.-]+`.
    static func isValidKey(_ key: String) -> Bool {
        !key.isEmpty
            && key.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
                    || byte == 0x2E
                    || byte == 0x2D
            }
    }

    /// Decodes one received header into an entry; nil for reserved keys or undecodable binary values.
    static func entry(name: String, value: UnsafeBufferPointer<UInt8>) -> Entry? {
        if isReserved(name) { return nil }
        if isBinaryKey(name) {
            guard let bytes = Base64.decode(value) else { return nil }
            return Entry(key: name, value: .binary(bytes))
        }
        return Entry(key: name, value: .text(String(decoding: value, as: UTF8.self)))
    }

    /// Appends the header fields to send for this metadata to `fields`, skipping reserved and invalid keys:
    /// straight into the list being built (a call's request headers, a response's headers or trailers).
    func appendHeaderFields(to fields: inout [(name: String, value: String)]) {
        for entry in self where Self.isValidKey(entry.key) && !Self.isReserved(entry.key) {
            switch entry.value {
            case .text(let text):
                if Self.isSendable(text) { fields.append((entry.key, text)) }
            case .binary(let bytes):
                fields.append((entry.key, Base64.encode(bytes)))
            }
        }
    }

    /// Whether a text value is printable ASCII, as a header value must be. Scanned over its contiguous bytes:
    /// a call's bearer token is checked on every call.
    private static func isSendable(_ text: String) -> Bool {
        let printable = { (byte: UInt8) in byte >= 0x20 && byte < 0x7F }
        return text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(printable) }
            ?? text.utf8.allSatisfy(printable)
    }
}
