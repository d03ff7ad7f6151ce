/// One SMTP reply (RFC 5321 §4.2): a three-digit code and the text of its lines.
struct SMTPReply: Equatable {
    let code: Int
    let lines: [String]

    /// The text of every line, joined, cut to a length fit for a log line.
    var text: String { String(lines.joined(separator: " ").prefix(200)) }
}

/// Assembles replies from lines as they arrive: `250-first`, `250-second`, `250 last`.
struct SMTPReplyReader {
    /// A reply with more lines than this is treated as a broken server, not read forever.
    static let maximumLines = 100
    private var code: Int?
    private var lines: [String] = []

    /// Takes one line (without its CRLF); returns the reply when the line was its last.
    mutating func take(_ line: String) throws(MailTransportError) -> SMTPReply? {
        let bytes = Array(line.utf8)
        guard bytes.count >= 3, bytes[0..<3].allSatisfy({ (48...57).contains($0) }),
            let code = Int(String(line.prefix(3))), (200...599).contains(code),
            bytes.count == 3 || bytes[3] == 32 || bytes[3] == 45
        else { throw .temporary("SMTP: malformed reply line \"\(line.prefix(100))\"") }
        guard self.code == nil || self.code == code else {
            throw .temporary("SMTP: reply lines carry different codes (\(self.code!) and \(code))")
        }
        self.code = code
        lines.append(bytes.count > 4 ? String(line.dropFirst(4)) : "")
        guard lines.count <= Self.maximumLines else { throw .temporary("SMTP: reply longer than 100 lines") }
        if bytes.count > 3, bytes[3] == 45 { return nil }
        defer { (self.code, lines) = (nil, []) }
        return SMTPReply(code: code, lines: lines)
    }
}

/// The bytes sent after `DATA` (RFC 5321 §4.5.2): a `.` doubled at the start of every line, so no line of
/// the message can end it early, then the closing `.` line.
enum SMTPData {
    static func stuffed(_ message: [UInt8]) -> [UInt8] {
        var data: [UInt8] = []
        data.reserveCapacity(message.count + 64)
        var atLineStart = true
        for byte in message {
            if atLineStart, byte == 46 { data.append(46) }
            data.append(byte)
            atLineStart = byte == 10
        }
        if !data.isEmpty, !atLineStart { data += [13, 10] }
        return data + [46, 13, 10]
    }
}
