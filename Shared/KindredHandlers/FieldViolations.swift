public import KindredRPC

/// The invalid fields of one request, collected so that a single INVALID_ARGUMENT names every one of them
/// in a `BadRequest`: the one way a service refuses a malformed request.
public struct FieldViolations {
    /// Longer than any credential, token or password Kindred issues or accepts: refused before any work
    /// (a lookup, an Argon2id hash) is spent on it.
    public static let longestCredential = 1_024

    public private(set) var violations: [ErrorDetail.FieldViolation] = []

    public init() {}

    /// Records that `field` is invalid, and why: `problem` says it of the field ("is required", "must be at
    /// most 50 characters"), and the violation's description is the sentence an app can show beside it,
    /// the field named in words ("Page token is required.").
    public mutating func add(_ field: String, _ problem: String) {
        let description = Self.sentence(field, problem)
        violations.append(ErrorDetail.FieldViolation(field: field, description: description))
    }

    /// "`Subject` `problem`.", the subject the last part of `field`'s path in words: `page.page_token` is
    /// "Page token", `media[2].url` "Url".
    static func sentence(_ field: String, _ problem: String) -> String {
        let name = field.split(separator: ".").last.map { $0.prefix { $0 != "[" } } ?? ""
        let words = String(name.map { $0 == "_" ? " " : $0 })
        let predicate = problem.hasSuffix(".") ? problem.dropLast() : Substring(problem)
        return "\(words.prefix(1).uppercased())\(words.dropFirst()) \(predicate)."
    }

    /// Records `description` against `field` when there is one.
    public mutating func add(_ field: String, _ description: String?) {
        if let description { add(field, description) }
    }

    /// Records `field` when `value` is empty or longer than `longestCredential` bytes.
    public mutating func require(_ field: String, _ value: String) {
        if value.isEmpty {
            add(field, "is required")
        } else if value.utf8.count > Self.longestCredential {
            add(field, "is too long")
        }
    }

    /// INVALID_ARGUMENT with a `BadRequest` naming every recorded field; nil when there is none. The message
    /// is their descriptions, sentences an app can show.
    public var error: RPCError? {
        guard !violations.isEmpty else { return nil }
        return RPCError(
            .invalidArgument, violations.map(\.description).joined(separator: " "),
            details: [.badRequest(violations)])
    }

    /// Throws `error`, if there is one.
    public func throwIfAny() throws(RPCError) {
        if let error { throw error }
    }
}

extension FieldViolations {
    /// INVALID_ARGUMENT naming one field.
    public static func single(_ field: String, _ description: String) -> RPCError {
        var violations = FieldViolations()
        violations.add(field, description)
        return violations.error!
    }

    /// Refuses `field` when there is a `problem` with it.
    public static func refuse(_ field: String, _ problem: String?) throws(RPCError) {
        if let problem { throw single(field, problem) }
    }

    /// Refuses, naming every one, the fields (name, value) that are empty or too long.
    public static func require(_ fields: KeyValuePairs<String, String>) throws(RPCError) {
        var violations = FieldViolations()
        for (field, value) in fields { violations.require(field, value) }
        try violations.throwIfAny()
    }
}
