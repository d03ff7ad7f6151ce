internal import FoundationEssentials
internal import Glibc

/// Header lines as RFC 5322 and RFC 2047 want them: ASCII only, folded to at most 78 characters a line.
enum MailHeader {
    /// UTF-8 bytes per encoded word: 52 base64 characters, 64 with the `=?UTF-8?B?…?=` frame, so a word fits
    /// after `Subject: ` within RFC 2047's 76-character line.
    static let bytesPerEncodedWord = 39

    /// `Name: value` for unstructured text (Subject): folded at its spaces when it is plain ASCII,
    /// otherwise as encoded words, one per line.
    static func unstructured(_ name: String, _ value: String) -> String {
        folded(name + ":", value) ?? "\(name): " + encodedWords(value).joined(separator: "\r\n ")
    }

    /// `Name: Display Name <address>`, the display name as atoms, a quoted string or encoded words.
    static func address(_ name: String, _ address: MailAddress) -> String {
        guard let displayName = address.displayName else { return "\(name): \(address.address)" }
        return "\(name): \(phrase(displayName)) <\(address.address)>"
    }

    /// RFC 5322 date-time in UTC: `Sat, 21 Nov 2026 09:05:00 +0000`.
    static func date(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var utc = tm()
        gmtime_r(&seconds, &utc)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(utc.tm_wday)]), \(utc.tm_mday) \(months[Int(utc.tm_mon)]) \(utc.tm_year + 1900) "
            + "\(two(utc.tm_hour)):\(two(utc.tm_min)):\(two(utc.tm_sec)) +0000"
    }

    /// `prefix value`, folded before spaces, if `value` is printable ASCII that cannot be mistaken for an
    /// encoded word and every line fits in 78 characters; nil otherwise.
    static func folded(_ prefix: String, _ value: String) -> String? {
        guard value.utf8.allSatisfy({ (32...126).contains($0) }), !value.contains("=?") else { return nil }
        var lines: [String] = []
        var line = prefix
        var hasWord = false
        for word in value.split(separator: " ", omittingEmptySubsequences: false) {
            if hasWord, !word.isEmpty, line.utf8.count + 1 + word.utf8.count > 78 {
                lines.append(line)
                line = ""
            }
            line += " " + word
            hasWord = hasWord || !word.isEmpty
        }
        lines.append(line)
        return lines.allSatisfy { $0.utf8.count <= 78 } ? lines.joined(separator: "\r\n") : nil
    }

    /// A display name: bare atoms when it has only atom characters and spaces, a quoted string when it is
    /// other printable ASCII, encoded words otherwise.
    static func phrase(_ text: String) -> String {
        let bytes = text.utf8
        if bytes.allSatisfy({ MailAddress.isAtomText($0) || $0 == 32 }) { return text }
        if bytes.allSatisfy({ (32...126).contains($0) }), !text.contains("=?") {
            return "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
        }
        return encodedWords(text).joined(separator: "\r\n ")
    }

    /// RFC 2047 "B" encoded words; a Unicode scalar is never split between two words.
    static func encodedWords(_ text: String) -> [String] {
        var words: [String] = []
        var chunk: [UInt8] = []
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if chunk.count + bytes.count > bytesPerEncodedWord {
                words.append(encodedWord(chunk))
                chunk = []
            }
            chunk += bytes
        }
        words.append(encodedWord(chunk))
        return words
    }

    private static func encodedWord(_ bytes: [UInt8]) -> String {
        "=?UTF-8?B?" + Data(bytes).base64EncodedString() + "?="
    }
}
