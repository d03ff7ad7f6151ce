/// Swift source split into its code and its string literals: enough of Swift's grammar (comments, single-
/// and multi-line literals, interpolations holding literals of their own) to tell SQL in a literal from a
/// word in a comment, not a parser.
struct SwiftText {
    /// A string literal's text between its quotes (interpolations as written), and the line it starts on.
    struct Literal {
        let line: Int
        let text: String
    }

    /// The source with comments and literals blanked out; line breaks kept, so lines keep their numbers.
    let code: String
    let literals: [Literal]

    init(_ source: String) {
        let bytes = Array(source.utf8)
        var code = bytes
        var literals: [Literal] = []
        var index = 0
        var line = 1
        // Blanks bytes[from..<to] in `code`, counting the line breaks it passes.
        func blank(_ from: Int, _ to: Int) {
            for position in from..<min(to, bytes.count) {
                if bytes[position] == Self.newline { line += 1 } else { code[position] = Self.space }
            }
        }
        while index < bytes.count {
            let rest = bytes[index...]
            if rest.starts(with: "//".utf8) {
                let end = bytes[index...].firstIndex(of: Self.newline) ?? bytes.count
                blank(index, end)
                index = end
            } else if rest.starts(with: "/*".utf8) {
                let end = Self.find("*/", in: bytes, from: index + 2).map { $0 + 2 } ?? bytes.count
                blank(index, end)
                index = end
            } else if bytes[index] == Self.quote {
                let delimiter = rest.starts(with: "\"\"\"".utf8) ? 3 : 1
                let start = index + delimiter
                let end = Self.literalEnd(bytes, from: start, delimiter: delimiter)
                let text = String(decoding: bytes[start..<max(start, end - delimiter)], as: UTF8.self)
                literals.append(Literal(line: line, text: text))
                blank(index, end)
                index = end
            } else {
                if bytes[index] == Self.newline { line += 1 }
                index += 1
            }
        }
        self.code = String(decoding: code, as: UTF8.self)
        self.literals = literals
    }

    private static let newline = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")
    private static let quote = UInt8(ascii: "\"")

    /// The index just past the literal whose text starts at `start`: past its closing quote(s), skipping
    /// escapes and interpolations (which may hold literals of their own).
    private static func literalEnd(_ bytes: [UInt8], from start: Int, delimiter: Int) -> Int {
        var index = start
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count {
                let opensInterpolation = bytes[index + 1] == UInt8(ascii: "(")
                index = opensInterpolation ? interpolationEnd(bytes, from: index + 2) : index + 2
            } else if delimiter == 1, bytes[index] == quote || bytes[index] == newline {
                return index + 1
            } else if delimiter == 3, bytes[index...].starts(with: "\"\"\"".utf8) {
                return index + 3
            } else {
                index += 1
            }
        }
        return bytes.count
    }

    /// The index just past the `)` closing an interpolation whose code starts at `start`.
    private static func interpolationEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var depth = 1
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case quote:
                index = literalEnd(bytes, from: index + 1, delimiter: 1)
                continue
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"):
                depth -= 1
                if depth == 0 { return index + 1 }
            default: break
            }
            index += 1
        }
        return bytes.count
    }

    private static func find(_ needle: String, in bytes: [UInt8], from start: Int) -> Int? {
        let pattern = Array(needle.utf8)
        var index = start
        while index + pattern.count <= bytes.count {
            if bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }
}
