/// An email address (`local@domain`, ASCII dot-atoms only) with an optional display name.
public struct MailAddress: Sendable, Equatable, CustomStringConvertible {
    /// The bare address, as used in the SMTP envelope: `no-reply@kindred.local`.
    public let address: String
    /// The name shown beside it (`Kindred`), any Unicode text without line breaks.
    public let displayName: String?

    /// Checks `address` and `displayName`; quoted local parts, address literals and non-ASCII addresses
    /// (which need SMTPUTF8) are refused.
    public init(_ address: String, displayName: String? = nil, field: String = "address") throws(MailError) {
        if let reason = Self.problem(with: address) {
            throw MailError(field, "\"\(address)\" is not a usable email address: \(reason)")
        }
        if let displayName {
            guard !displayName.hasHeaderBreakingCharacters else {
                throw MailError(field, "the display name contains a line break or control character")
            }
            guard displayName.count <= 100 else {
                throw MailError(field, "the display name is over 100 characters")
            }
        }
        self.address = address
        self.displayName = displayName.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Parses `Name <local@domain>` or a bare `local@domain`.
    public init(parsing text: String, field: String = "address") throws(MailError) {
        let trimmed = text.trimmingSpaces
        guard trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") else {
            try self.init(trimmed, field: field)
            return
        }
        var name = trimmed[..<open].trimmingSpaces
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
            name = String(name.dropFirst().dropLast())
        }
        let address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
        try self.init(address, displayName: name, field: field)
    }

    /// The domain part, after the `@` (there is one: the initializer checked).
    public var domain: String { String(address[address.index(after: address.lastIndex(of: "@")!)...]) }

    /// `Name <address>` or the bare address.
    public var description: String { displayName.map { "\($0) <\(address)>" } ?? address }

    private static func problem(with address: String) -> String? {
        guard address.utf8.count <= 254 else { return "longer than 254 characters" }
        guard let at = address.utf8.lastIndex(of: UInt8(ascii: "@")) else { return "no @" }
        let local = address.utf8[..<at]
        let domain = address.utf8[address.utf8.index(after: at)...]
        guard (1...64).contains(local.count) else { return "the part before @ must be 1 to 64 characters" }
        guard isDotAtom(local, allowed: isAtomText) else { return "unsupported characters before @" }
        guard !domain.isEmpty, isDotAtom(domain, allowed: isDomainText),
            domain.split(separator: UInt8(ascii: ".")).allSatisfy({
                $0.count <= 63 && $0.first != 45 && $0.last != 45
            })
        else { return "the domain must be letters, digits, hyphens and dots" }
        return nil
    }

    /// Non-empty runs of allowed bytes separated by single dots.
    private static func isDotAtom(_ bytes: Substring.UTF8View, allowed: (UInt8) -> Bool) -> Bool {
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(allowed) }
    }

    /// RFC 5322 `atext`: letters, digits and ``!#$%&'*+-/=?^_`{|}~``.
    static func isAtomText(_ byte: UInt8) -> Bool {
        isDomainText(byte) || Array("!#$%&'*+/=?^_`{|}~".utf8).contains(byte)
    }

    private static func isDomainText(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(
            drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" })
                .reversed())
    }
}
