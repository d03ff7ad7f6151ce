import Foundation

/// Where SQL is written in Swift source: string literals that open a statement, and the code that runs or
/// builds one (`.query(`, `.pureRead(`, `PostgresQuery`, `unsafeSQL`). STYLE.md keeps SQL in a service's
/// `Storage/` files and its numbered `Migrations/`; anywhere else under `Services/` it is a finding.
enum SQLPlacement {
    /// A line that writes or runs SQL.
    struct Finding: CustomStringConvertible, Equatable {
        let line: Int
        let text: String
        var description: String { "line \(line): \(text)" }
    }

    /// Whether `path` (relative to the repository) is a file where a service may write SQL.
    static func mayHoldSQL(_ path: String) -> Bool {
        path.contains("/Storage/") || path.contains("/Migrations/")
    }

    /// The places in `source` that write or run SQL; comments and prose in literals are not.
    static func findings(in source: String) -> [Finding] {
        let split = SwiftText(source)
        var findings: [Finding] = []
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, code) in split.code.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where code.contains(runsSQL) {
            findings.append(Finding(line: index + 1, text: lines[index].trimmingCharacters(in: .whitespaces)))
        }
        for literal in split.literals {
            if let statement = statementStart(literal.text) {
                findings.append(Finding(line: literal.line, text: statement))
            }
        }
        return findings.sorted { $0.line < $1.line }
    }

    // The regexes are built once: a regex literal is parsed where it is evaluated, and parsing these on every
    // line and literal took seconds of a debug build's CPU, which the whole suite waits behind on 2 cores.
    // `nonisolated(unsafe)`: Regex is not declared Sendable, but these are never mutated, only matched.

    /// The code that runs a statement or builds one.
    nonisolated(unsafe) private static let runsSQL =
        #/\.(query|pureRead)\s*\(|\bPostgresQuery\b|\bunsafeSQL\b/#

    /// A statement's first keywords, in capitals as the house writes SQL (a sentence says "Select a
    /// date", never "SELECT").
    nonisolated(unsafe) private static let statementKeywords =
        #/
        ^ ( SELECT | INSERT \s+ INTO | UPDATE \s+ \S+ (\s+ \w+)? \s+ SET | DELETE \s+ FROM
          | WITH \s+ \w+ \s+ AS | LOCK \s+ TABLE
          | CREATE \s+ (TABLE | (UNIQUE \s+)? INDEX | SCHEMA | FUNCTION) | ALTER \s+ TABLE
          | DROP \s+ (TABLE | INDEX) | TRUNCATE | LISTEN | NOTIFY ) \b
        /#

    /// The literal's first line when the literal, past SQL comments, opens a statement.
    private static func statementStart(_ literal: String) -> String? {
        let lines = literal.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = lines.first(where: { !$0.isEmpty && !$0.hasPrefix("--") }),
            first.contains(statementKeywords)
        else { return nil }
        return first
    }

    /// Every `.swift` file under `Services/` (path relative to the repository, text).
    static func serviceFiles() throws -> [(path: String, text: String)] {
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let base = repository.appendingPathComponent("Services")
        guard let walk = FileManager.default.enumerator(atPath: base.path) else { return [] }
        var files: [(String, String)] = []
        for case let relative as String in walk where relative.hasSuffix(".swift") {
            let text = try String(contentsOf: base.appendingPathComponent(relative), encoding: .utf8)
            files.append(("Services/\(relative)", text))
        }
        return files
    }
}
