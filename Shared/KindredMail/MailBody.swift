/// A plain-text body ready for the wire: CRLF lines, 7bit when it is short-lined printable ASCII,
/// quoted-printable UTF-8 otherwise (no `8BITMIME` needed from any server).
struct MailBody: Equatable {
    /// The `Content-Transfer-Encoding` value.
    let transferEncoding: String
    /// The encoded lines, without line endings; each at most 998 octets (7bit) or 76 (quoted-printable).
    let lines: [String]

    init(_ text: String) {
        // CRLF, LF and lone CR all end a line; a final line break adds no empty line.
        var logical = text.split(omittingEmptySubsequences: false) {
            $0 == "\r\n" || $0 == "\n" || $0 == "\r"
        }
        if logical.count > 1, logical.last?.isEmpty == true { logical.removeLast() }
        let isSevenBit = logical.allSatisfy { line in
            line.utf8.count <= 998 && line.utf8.allSatisfy { (32...126).contains($0) || $0 == 9 }
        }
        if isSevenBit {
            transferEncoding = "7bit"
            lines = logical.map(String.init)
        } else {
            transferEncoding = "quoted-printable"
            lines = logical.flatMap { Self.quotedPrintable(Array($0.utf8)) }
        }
    }

    /// One logical line as quoted-printable lines (RFC 2045 §6.7): soft breaks keep each under 77
    /// characters, an escape is never split, and a space or tab that would end the line is escaped.
    static func quotedPrintable(_ bytes: [UInt8]) -> [String] {
        let hex = Array("0123456789ABCDEF".utf8)
        var lines: [String] = []
        var line: [UInt8] = []
        for (index, byte) in bytes.enumerated() {
            let isLast = index == bytes.count - 1
            let literal = ((33...126).contains(byte) && byte != 61) || ((byte == 32 || byte == 9) && !isLast)
            let token = literal ? [byte] : [61, hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            if line.count + token.count > 75 {
                lines.append(String(decoding: line + [61], as: UTF8.self))
                line = []
            }
            line += token
        }
        lines.append(String(decoding: line, as: UTF8.self))
        return lines
    }
}
