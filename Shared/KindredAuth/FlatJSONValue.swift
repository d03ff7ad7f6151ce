/// One member value of a flat JSON object.
enum FlatJSONValue: Equatable {
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case null
}

/// Writes a flat JSON object compactly, members in the order given.
///
/// The spelling matches Python's `json.dumps(separators=(",", ":"))` for ASCII text, so a token Kindred
/// signs can be compared byte for byte with one an independent implementation signs.
struct FlatJSONWriter {
    private(set) var bytes: [UInt8] = [UInt8(ascii: "{")]

    /// Appends one member.
    mutating func append(_ name: String, _ value: FlatJSONValue) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        switch value {
        case .string(let text): appendString(text)
        case .integer(let number): bytes.append(contentsOf: String(number).utf8)
        case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
        case .null: bytes.append(contentsOf: "null".utf8)
        }
    }

    /// The finished object.
    consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private mutating func appendString(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(byte)
            case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
            case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
            case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
            case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
            case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(digits[Int(byte >> 4)])
                bytes.append(digits[Int(byte & 0x0F)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
