import KindredRPC

/// The invalid fields of one request, collected so that a single INVALID_ARGUMENT names every one of them.
struct FieldViolations {
    private(set) var violations: [ErrorDetail.FieldViolation] = []

    /// Records that `field` is invalid, and why.
    mutating func add(_ field: String, _ description: String) {
        violations.append(ErrorDetail.FieldViolation(field: field, description: description))
    }

    /// Records `description` against `field` when there is one.
    mutating func add(_ field: String, _ description: String?) {
        if let description { add(field, description) }
    }

    /// INVALID_ARGUMENT with a `BadRequest` naming every recorded field; nil when there is none.
    var error: RPCError? {
        guard !violations.isEmpty else { return nil }
        let fields = violations.map(\.field).joined(separator: ", ")
        return RPCError(.invalidArgument, "invalid \(fields)", details: [.badRequest(violations)])
    }

    /// Throws `error`, if there is one.
    func throwIfAny() throws(RPCError) {
        if let error { throw error }
    }
}

extension FieldViolations {
    /// INVALID_ARGUMENT naming one field.
    static func single(_ field: String, _ description: String) -> RPCError {
        var violations = FieldViolations()
        violations.add(field, description)
        return violations.error!
    }
}
