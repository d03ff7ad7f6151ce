public import KindredRPC

/// An email address, checked once at the edge: `local@domain`, an ASCII dot-atom before the @ and at least two
/// dot-separated labels of letters, digits and inner hyphens after it, at most 254 characters (what the mail
/// outbox can deliver, and a little less). Two spellings of one mailbox are equal: comparing, hashing and
/// blind-indexing use `normalized`, the address trimmed and lower-cased.
public struct Email: Hashable, Sendable, CustomStringConvertible {
    /// The address as the person typed it, surrounding spaces trimmed: where mail goes, what is shown.
    public let address: String

    /// The address in `text`, surrounding spaces trimmed; nil when `problem(text)` names a problem.
    public init?(_ text: String) {
        guard Self.problem(text) == nil else { return nil }
        address = Self.trimmed(text)
    }

    /// `address` lower-cased: one spelling per mailbox.
    public var normalized: String { address.lowercased() }

    /// Why `text` (its surrounding spaces trimmed) is not an address, or nil when it is one.
    public static func problem(_ text: String) -> String? {
        let email = trimmed(text)
        guard !email.isEmpty else { return "is required" }
        guard email.utf8.count <= 254 else { return "must be at most 254 characters" }
        guard let at = email.utf8.lastIndex(of: UInt8(ascii: "@")) else { return "is not an email address" }
        let local = email.utf8[..<at]
        let labels = email.utf8[email.utf8.index(after: at)...].split(
            separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let localIsValid =
            (1...64).contains(local.count)
            && local.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy {
                !$0.isEmpty && $0.allSatisfy(isAtomByte)
            }
        let domainIsValid =
            labels.count >= 2
            && labels.allSatisfy {
                (1...63).contains($0.count) && $0.allSatisfy(isLabelByte) && $0.first != 45 && $0.last != 45
            }
        return localIsValid && domainIsValid ? nil : "is not an email address"
    }

    /// `text` trimmed and lower-cased, whether or not it is an address: a sign-in identifier may be a username,
    /// and an address stored earlier is compared as this one is.
    public static func normalized(_ text: String) -> String { trimmed(text).lowercased() }

    /// Whether `text`, an address stored earlier, names this mailbox.
    public func matches(_ text: String) -> Bool { Self.normalized(text) == normalized }

    public static func == (a: Email, b: Email) -> Bool { a.normalized == b.normalized }

    public func hash(into hasher: inout Hasher) { hasher.combine(normalized) }

    public var description: String { address }

    private static func trimmed(_ text: String) -> String {
        let start = text.drop(while: \.isWhitespace)
        let end = start.lastIndex { !$0.isWhitespace }.map(start.index(after:)) ?? start.startIndex
        return String(start[..<end])
    }

    private static func isLabelByte(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45
    }

    private static func isAtomByte(_ byte: UInt8) -> Bool {
        isLabelByte(byte) || "!#$%&'*+/=?^_`{|}~".utf8.contains(byte)
    }
}

extension FieldViolations {
    /// The address in `text`, checked once at the edge; nil after recording `field` when it is none.
    public mutating func email(_ field: String, _ text: String) -> Email? {
        if let email = Email(text) { return email }
        add(field, Email.problem(text))
        return nil
    }

    /// The address in `text`, or INVALID_ARGUMENT naming `field`.
    public static func email(_ field: String, _ text: String) throws(RPCError) -> Email {
        var violations = FieldViolations()
        guard let email = violations.email(field, text) else { throw violations.error! }
        return email
    }
}
