package import KindredPostgres

/// A table in a service's schema, spelled as SQL text: identifiers cannot be bind parameters. Only built
/// from a schema name checked to be a plain lowercase identifier, so interpolating it is safe.
package struct SchemaTable: Sendable {
    /// `"schema".table`, quoted.
    package let sql: String

    /// Traps on a schema name that is not a plain identifier: schema names are constants of the service.
    package init(schema: String, table: String) {
        precondition(
            Self.isPlainIdentifier(schema), "schema \"\(schema)\" is not a plain lowercase identifier")
        sql = "\"\(schema)\".\(table)"
    }

    /// Lowercase letters, digits and underscores, not starting with a digit, at most 63 bytes.
    package static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(48...57).contains(first), name.utf8.count <= 63 else {
            return false
        }
        return name.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }
    }
}

extension PostgresQuery.StringInterpolation {
    /// Writes a checked table name into the statement as SQL text (values still go as bind parameters).
    package mutating func appendInterpolation(_ table: SchemaTable) {
        appendLiteral(table.sql)
    }
}
