/// A message, address or mail setting that cannot be used; the description says which and why.
public struct MailError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was refused: `to`, `subject`, `body`, `kind`, `from`, `mail`, ...
    public let field: String
    /// Why, in one line for a developer or an operator.
    public let reason: String

    init(_ field: String, _ reason: String) {
        self.field = field
        self.reason = reason
    }

    /// `field: reason`.
    public var description: String { "\(field): \(reason)" }
}

extension String {
    /// True when a header value would carry a line break (header injection) or another control character.
    var hasHeaderBreakingCharacters: Bool {
        unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }
    }
}
