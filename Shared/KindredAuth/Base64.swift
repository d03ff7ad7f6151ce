/// Base64 (RFC 4648) as gRPC uses it for `-bin` metadata and `grpc-status-details-bin`: emitted in the
/// standard alphabet without padding, accepted with or without padding and in either alphabet (some clients
/// send the URL-safe one). `Base64URL` is the same codec in the spelling a compact JWS uses.
public enum Base64 {
    /// Encodes bytes without padding.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        Alphabet.standard.encode(bytes)
    }

    /// Decodes padded or unpadded base64; nil on any invalid character or length.
    public static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        var end = text.count
        while end > 0 && text[end - 1] == UInt8(ascii: "=") { end -= 1 }
        return Alphabet.standard.decode(text[..<end], canonical: false)
    }

    /// Decodes base64 held in a string.
    public static func decode(_ text: String) -> [UInt8]? {
        var text = text
        return text.withUTF8 { decode($0) }
    }
}

/// Base64url without padding (RFC 7515 §2), the only encoding a compact JWS uses.
///
/// Decoding is strict: no padding, no whitespace, no characters outside the URL-safe alphabet, and the unused
/// low bits of the last character must be zero, so every byte string has exactly one accepted spelling.
/// Page tokens use it too.
public enum Base64URL {
    /// Encodes bytes as unpadded base64url text.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        Alphabet.url.encode(bytes)
    }

    /// Decodes unpadded base64url text; nil if the text is not the canonical encoding of some bytes.
    public static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        Alphabet.url.decode(text, canonical: true)
    }
}

/// The 64 symbols of one base64 spelling, and the 6-bit value of every byte it reads.
private struct Alphabet: Sendable {
    static let standard = Alphabet(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", alsoReading: "-_")
    static let url = Alphabet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    private let symbols: [UInt8]
    /// The 6-bit value of each byte, or 0xFF for bytes this spelling does not read.
    private let values: [UInt8]

    /// `alsoReading` are the two symbols of the other alphabet for 62 and 63, accepted when decoding.
    private init(_ symbols: String, alsoReading alternatives: String = "") {
        self.symbols = Array(symbols.utf8)
        var values = [UInt8](repeating: 0xFF, count: 256)
        for (index, symbol) in self.symbols.enumerated() { values[Int(symbol)] = UInt8(index) }
        for (offset, symbol) in alternatives.utf8.enumerated() { values[Int(symbol)] = UInt8(62 + offset) }
        self.values = values
    }

    func encode(_ bytes: some Collection<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var iterator = bytes.makeIterator()
        while let first = iterator.next() {
            let second = iterator.next()
            let third = iterator.next()
            let group = UInt32(first) << 16 | UInt32(second ?? 0) << 8 | UInt32(third ?? 0)
            output.append(symbols[Int(group >> 18 & 0x3F)])
            output.append(symbols[Int(group >> 12 & 0x3F)])
            if second != nil { output.append(symbols[Int(group >> 6 & 0x3F)]) }
            if third != nil { output.append(symbols[Int(group & 0x3F)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes unpadded text; nil on a byte outside the alphabet or a length no byte string has. When
    /// `canonical`, the unused low bits of the last symbol must be zero too.
    func decode(_ text: some Collection<UInt8>, canonical: Bool) -> [UInt8]? {
        // A length of 1 mod 4 cannot come from any byte string.
        guard text.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(text.count * 3 / 4)
        var group: UInt32 = 0
        var pending = 0
        for symbol in text {
            let value = values[Int(symbol)]
            guard value != 0xFF else { return nil }
            group = group << 6 | UInt32(value)
            pending += 1
            if pending == 4 {
                output.append(UInt8(truncatingIfNeeded: group >> 16))
                output.append(UInt8(truncatingIfNeeded: group >> 8))
                output.append(UInt8(truncatingIfNeeded: group))
                group = 0
                pending = 0
            }
        }
        switch pending {
        case 2:
            guard !canonical || group & 0x0F == 0 else { return nil }
            output.append(UInt8(truncatingIfNeeded: group >> 4))
        case 3:
            guard !canonical || group & 0x03 == 0 else { return nil }
            output.append(UInt8(truncatingIfNeeded: group >> 10))
            output.append(UInt8(truncatingIfNeeded: group >> 2))
        default:
            break
        }
        return output
    }
}
