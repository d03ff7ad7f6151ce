/// Standard base64 (RFC 4648) as gRPC uses it for `-bin` metadata: emitted unpadded, accepted with or without padding.
enum Base64 {
    private static let alphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    private static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        // The URL-safe alphabet is accepted too; some clients send it.
        table[Int(UInt8(ascii: "-"))] = 62
        table[Int(UInt8(ascii: "_"))] = 63
        return table
    }()

    /// Encodes bytes without padding.
    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int((chunk >> UInt32(shift)) & 0x3F)]) }
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            var chunk = UInt32(bytes[index]) << 16
            if rest == 2 { chunk |= UInt32(bytes[index + 1]) << 8 }
            out.append(alphabet[Int((chunk >> 18) & 0x3F)])
            out.append(alphabet[Int((chunk >> 12) & 0x3F)])
            if rest == 2 { out.append(alphabet[Int((chunk >> 6) & 0x3F)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes padded or unpadded base64; nil on any invalid character or length.
    static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var end = text.count
        while end > 0 && text[end - 1] == UInt8(ascii: "=") { end -= 1 }
        if end % 4 == 1 { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(end * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for index in 0..<end {
            let value = reverse[Int(text[index])]
            if value == 0xFF { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return out
    }

    /// Decodes base64 held in a string.
    static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode($0) }
    }
}
