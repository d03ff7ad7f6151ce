import KindredHandlers

/// The editable fields of a piece of content (a calendar event, a registry item), named in `update_mask` by
/// their proto names.
protocol ContentField: RawRepresentable<String>, CaseIterable, Hashable, Sendable {}

extension ContentField {
    /// The fields `mask` names, once each; an empty mask or an unknown name is recorded against `update_mask`.
    static func named(by mask: [String], _ violations: inout FieldViolations) -> [Self] {
        if mask.isEmpty { violations.add("update_mask", "must name at least one field") }
        var fields: [Self] = []
        for path in mask {
            guard let field = Self(rawValue: path) else {
                let known = allCases.map(\.rawValue).joined(separator: ", ")
                violations.add("update_mask", "names an unknown field \"\(path)\" (fields: \(known))")
                continue
            }
            if !fields.contains(field) { fields.append(field) }
        }
        return fields
    }
}
