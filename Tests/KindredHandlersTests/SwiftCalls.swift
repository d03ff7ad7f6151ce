/// The calls of some functions in Swift source text, with their top-level arguments: enough of Swift's
/// grammar (string literals with interpolations, nested brackets, comments) to read refusals, not a parser.
struct SwiftCalls: Sequence {
    struct Argument {
        let label: String?
        /// As written, label left out.
        let text: String

        /// The text of a string literal argument, without its quotes.
        var literal: String? {
            if text.hasPrefix("\"\"\""), text.hasSuffix("\"\"\""), text.count >= 6 {
                return String(text.dropFirst(3).dropLast(3)).trimmingWhitespace
            }
            guard text.count >= 2, text.first == "\"", text.last == "\"" else { return nil }
            return String(text.dropFirst().dropLast())
        }
    }

    struct Call {
        let line: Int
        let arguments: [Argument]
        /// The `func` the call is in; nil when it is in a property, an initializer or at the top.
        let enclosingFunction: String?
    }

    private let calls: [Call]

    init(_ source: String, named names: Set<String>) {
        let text = Array(source.utf8)
        var calls: [Call] = []
        var index = 0
        // The last `func` and the brace depth it was declared at: a property or initializer declared at that
        // depth or shallower ends it, a local variable in its body does not.
        var lastDeclaration: (name: String?, depth: Int) = (nil, 0)
        var depth = 0
        while index < text.count {
            if let end = Self.skipNonCode(text, at: index) {
                index = end
                continue
            }
            if text[index] == UInt8(ascii: "{") { depth += 1 }
            if text[index] == UInt8(ascii: "}") { depth -= 1 }
            guard Self.isIdentifierStart(text[index]), index == 0 || !Self.isIdentifier(text[index - 1])
            else {
                index += 1
                continue
            }
            var end = index
            while end < text.count, Self.isIdentifier(text[end]) { end += 1 }
            let word = String(decoding: text[index..<end], as: UTF8.self)
            if word == "func" {
                lastDeclaration = (Self.name(after: end, in: text), depth)
            } else if word == "init" || (word == "var" && Self.isTypedProperty(after: end, in: text)),
                depth <= lastDeclaration.depth
            {
                lastDeclaration = (nil, depth)
            } else if names.contains(word), end < text.count, text[end] == UInt8(ascii: "("),
                !Self.follows("func", before: index, in: text)
            {
                let close = Self.closing(text, from: end)
                let line = text[..<index].filter { $0 == UInt8(ascii: "\n") }.count + 1
                calls.append(
                    Call(
                        line: line, arguments: Self.arguments(text, from: end + 1, to: close),
                        enclosingFunction: lastDeclaration.name))
            }
            index = end
        }
        self.calls = calls
    }

    func makeIterator() -> IndexingIterator<[Call]> { calls.makeIterator() }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || byte == 95
    }

    private static func isIdentifier(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || (byte >= 48 && byte <= 57)
    }

    private static func name(after index: Int, in text: [UInt8]) -> String? {
        var start = index
        while start < text.count, text[start] == UInt8(ascii: " ") { start += 1 }
        var end = start
        while end < text.count, isIdentifier(text[end]) { end += 1 }
        return end > start ? String(decoding: text[start..<end], as: UTF8.self) : nil
    }

    /// `var name: Type`, as a property is declared.
    private static func isTypedProperty(after index: Int, in text: [UInt8]) -> Bool {
        guard let name = name(after: index, in: text) else { return false }
        var end = index
        while end < text.count, text[end] == UInt8(ascii: " ") { end += 1 }
        end += name.utf8.count
        return end < text.count && text[end] == UInt8(ascii: ":")
    }

    private static func follows(_ keyword: String, before index: Int, in text: [UInt8]) -> Bool {
        let prefix = String(
            decoding: text[Swift.max(0, index - keyword.utf8.count - 2)..<index], as: UTF8.self)
        return prefix.trimmingWhitespace.hasSuffix(keyword)
    }

    /// The index past a comment or string literal starting at `index`; nil when none starts there.
    private static func skipNonCode(_ text: [UInt8], at index: Int) -> Int? {
        let rest = text[index...]
        if rest.starts(with: "//".utf8) {
            return text[index...].firstIndex(of: UInt8(ascii: "\n")) ?? text.count
        }
        if rest.starts(with: "/*".utf8) {
            var end = index + 2
            while end + 1 < text.count,
                !(text[end] == UInt8(ascii: "*") && text[end + 1] == UInt8(ascii: "/"))
            {
                end += 1
            }
            return end + 2
        }
        if rest.starts(with: "\"\"\"".utf8) {
            var end = index + 3
            while end + 2 < text.count, !text[end...].starts(with: "\"\"\"".utf8) { end += 1 }
            return end + 3
        }
        guard text[index] == UInt8(ascii: "\"") else { return nil }
        var end = index + 1
        while end < text.count, text[end] != UInt8(ascii: "\"") {
            if text[end] == UInt8(ascii: "\\"), end + 1 < text.count, text[end + 1] == UInt8(ascii: "(") {
                end = closing(text, from: end + 1) + 1
            } else {
                end += text[end] == UInt8(ascii: "\\") ? 2 : 1
            }
        }
        return end + 1
    }

    /// The index of the bracket closing the one at `open`.
    private static func closing(_ text: [UInt8], from open: Int) -> Int {
        var depth = 0
        var index = open
        while index < text.count {
            if let end = skipNonCode(text, at: index) {
                index = end
                continue
            }
            switch text[index] {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
            index += 1
        }
        return text.count
    }

    /// The top-level arguments between `start` and `end`.
    private static func arguments(_ text: [UInt8], from start: Int, to end: Int) -> [Argument] {
        var pieces: [String] = []
        var pieceStart = start
        var index = start
        while index < end {
            if let skipped = skipNonCode(text, at: index) {
                index = skipped
                continue
            }
            switch text[index] {
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): index = closing(text, from: index)
            case UInt8(ascii: ","):
                pieces.append(String(decoding: text[pieceStart..<index], as: UTF8.self))
                pieceStart = index + 1
            default: break
            }
            index += 1
        }
        pieces.append(String(decoding: text[pieceStart..<Swift.min(end, text.count)], as: UTF8.self))
        return pieces.map(\.trimmingWhitespace).filter { !$0.isEmpty }.map(argument)
    }

    private static func argument(_ piece: String) -> Argument {
        let label = piece.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        let afterLabel = piece.dropFirst(label.count)
        guard !label.isEmpty, afterLabel.hasPrefix(":"), !afterLabel.hasPrefix("::") else {
            return Argument(label: nil, text: piece)
        }
        return Argument(label: String(label), text: afterLabel.dropFirst().trimmingWhitespace)
    }
}

extension StringProtocol {
    var trimmingWhitespace: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
