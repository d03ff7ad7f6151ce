import FoundationEssentials

/// The texts members write on a baby profile (names, descriptions, comments): trimmed of surrounding
/// whitespace, counted in characters as a reader sees them, and free of control characters, which can hide
/// text or break a layout (a comment may keep its line breaks).
enum ContentText {
    /// `text` without surrounding whitespace and newlines: what is checked and stored.
    static func trimmed(_ text: String) -> String {
        let isBlank = { (character: Character) in character.isWhitespace || character.isNewline }
        guard let first = text.firstIndex(where: { !isBlank($0) }),
            let last = text.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(text[first...last])
    }

    /// Why `text` (trimmed) cannot be stored, or nil: empty when `required`, longer than `limit` characters,
    /// or holding a control character (a newline only when `newlines` allows it).
    static func problem(_ text: String, limit: Int, required: Bool, newlines: Bool = false) -> String? {
        if required, text.isEmpty { return "is required" }
        if text.count > limit { return "must be at most \(limit.formatted()) characters" }
        let refused = text.unicodeScalars.contains { scalar in
            scalar.properties.generalCategory == .control && !(newlines && scalar == "\n")
        }
        if refused {
            return newlines
                ? "must not contain control characters other than line breaks"
                : "must not contain control characters"
        }
        return nil
    }

    /// Why `text` is not an `https://` link with a host, of printable ASCII, at most 2,048 characters, or nil
    /// (also for the empty text, when the link is optional).
    static func httpsLinkProblem(_ text: String) -> String? {
        guard !text.isEmpty else { return nil }
        guard text.utf8.count <= 2_048 else { return "must be at most 2,048 characters" }
        guard text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }), let url = URL(string: text),
            url.scheme?.lowercased() == "https", let host = url.host(), !host.isEmpty
        else { return "must be empty or an https:// link" }
        return nil
    }
}

extension Int {
    /// The number with thousands separated by commas, as the service's messages write them ("1,000").
    fileprivate func formatted() -> String {
        let digits = Array(String(self))
        return digits.enumerated().map { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? ",\(digit)" : "\(digit)"
        }.joined()
    }
}
