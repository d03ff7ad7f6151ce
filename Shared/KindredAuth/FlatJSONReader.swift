/// A strict reader for one flat JSON object (RFC 8259): the shape of a JWS header and of Kindred's claims.
///
/// Members are strings, integers, booleans or null; nested objects and arrays, fractions and exponents,
/// duplicate names, invalid UTF-8, lone surrogates and trailing bytes are all refused. Refusing more than
/// JSON allows is safe here: Kindred's own issuer writes every token this reads.
struct FlatJSONReader {
    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses `bytes` as one flat object; nil if it is anything else.
    static func object(from bytes: [UInt8]) -> [String: FlatJSONValue]? {
        var reader = FlatJSONReader(bytes)
        return reader.readObject()
    }

    private mutating func readObject() -> [String: FlatJSONValue]? {
        skipWhitespace()
        guard take(UInt8(ascii: "{")) else { return nil }
        var members: [String: FlatJSONValue] = [:]
        skipWhitespace()
        if !take(UInt8(ascii: "}")) {
            repeat {
                skipWhitespace()
                guard let name = readString() else { return nil }
                skipWhitespace()
                guard take(UInt8(ascii: ":")), let value = readValue(), members[name] == nil else {
                    return nil
                }
                members[name] = value
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        skipWhitespace()
        return index == bytes.count ? members : nil
    }

    private mutating func readValue() -> FlatJSONValue? {
        skipWhitespace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""): return readString().map(FlatJSONValue.string)
        case UInt8(ascii: "t"): return readLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return readLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return readLiteral("null", .null)
        default: return readInteger().map(FlatJSONValue.integer)
        }
    }

    private mutating func readLiteral(_ word: StaticString, _ value: FlatJSONValue) -> FlatJSONValue? {
        let spelling = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes[index...].starts(with: spelling) else { return nil }
        index += spelling.count
        return value
    }

    private mutating func readInteger() -> Int64? {
        let negative = take(UInt8(ascii: "-"))
        let start = index
        var magnitude: Int64 = 0
        while index < bytes.count, let digit = Self.digitValue(bytes[index]) {
            let (shifted, overflowA) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflowB) = shifted.addingReportingOverflow(Int64(digit))
            guard !overflowA, !overflowB else { return nil }
            magnitude = sum
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        // Fractions and exponents are valid JSON but no Kindred claim uses them.
        let next = index < bytes.count ? bytes[index] : 0
        guard next != UInt8(ascii: "."), next | 0x20 != UInt8(ascii: "e") else { return nil }
        return negative ? -magnitude : magnitude
    }

    private mutating func readString() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        var utf8: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(validating: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard readEscape(into: &utf8) else { return nil }
            case 0..<0x20:
                return nil
            default:
                utf8.append(byte)
            }
        }
        return nil
    }

    private mutating func readEscape(into utf8: inout [UInt8]) -> Bool {
        guard index < bytes.count else { return false }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"): return readUnicodeEscape(into: &utf8)
        default: return false
        }
        return true
    }

    private mutating func readUnicodeEscape(into utf8: inout [UInt8]) -> Bool {
        guard let unit = readHexUnit() else { return false }
        var scalarValue = UInt32(unit)
        if (0xD800..<0xDC00).contains(unit) {
            guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = readHexUnit(),
                (0xDC00..<0xE000).contains(low)
            else { return false }
            scalarValue = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(scalarValue) else { return false }
        UTF8.encode(scalar) { utf8.append($0) }
        return true
    }

    private mutating func readHexUnit() -> UInt16? {
        guard bytes.count - index >= 4 else { return nil }
        var unit: UInt16 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Self.hexValue(byte) else { return nil }
            unit = unit << 4 | UInt16(digit)
        }
        index += 4
        return unit
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, Self.isWhitespace(bytes[index]) {
            index += 1
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func digitValue(_ byte: UInt8) -> UInt8? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? byte - UInt8(ascii: "0") : nil
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        if let digit = digitValue(byte) { return digit }
        let lower = byte | 0x20
        return (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(lower) ? lower - UInt8(ascii: "a") + 10 : nil
    }
}
