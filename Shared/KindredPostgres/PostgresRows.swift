internal import CLibPQ

/// Owns one `PGresult`, cleared exactly once. libpq documents a finished PGresult as read-only and safe to
/// read from any thread, which is what makes the unchecked Sendable sound.
final class PostgresResult: @unchecked Sendable {
    private let pointer: OpaquePointer
    let rowCount: Int
    let columnCount: Int

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
        self.rowCount = Int(PQntuples(pointer))
        self.columnCount = Int(PQnfields(pointer))
    }

    deinit { PQclear(pointer) }

    var affectedRows: Int { Int(String(cString: PQcmdTuples(pointer))) ?? 0 }

    func columnName(_ column: Int) -> String { String(cString: PQfname(pointer, Int32(column))) }

    func columnType(_ column: Int) -> PostgresDataType {
        PostgresDataType(oid: PQftype(pointer, Int32(column)))
    }

    /// The cell's bytes (valid while this result lives), or nil for NULL.
    func withCell<T>(row: Int, column: Int, _ body: (UnsafeRawBufferPointer?) throws(PostgresError) -> T)
        throws(PostgresError) -> T
    {
        let (row, column) = (Int32(row), Int32(column))
        if PQgetisnull(pointer, row, column) != 0 { return try body(nil) }
        let bytes = UnsafeRawBufferPointer(
            start: PQgetvalue(pointer, row, column), count: Int(PQgetlength(pointer, row, column)))
        return try body(bytes)
    }
}

/// The rows a statement returned (none for a command), decoded on demand.
public struct PostgresRows: Sendable, RandomAccessCollection {
    let result: PostgresResult

    public var startIndex: Int { 0 }
    public var endIndex: Int { result.rowCount }

    /// The row at `index`.
    public subscript(index: Int) -> PostgresRow { PostgresRow(result: result, index: index) }

    /// Rows inserted, updated, deleted or selected, as the server counted them.
    public var affectedRows: Int { result.affectedRows }

    /// The result's column names, in order.
    public var columnNames: [String] { (0..<result.columnCount).map(result.columnName) }

    /// Decodes every row as the given column types: `try rows.decode((String, Int?).self)`.
    public func decode<each Value: PostgresDecodable>(_ types: (repeat each Value).Type) throws(PostgresError)
        -> [(repeat each Value)]
    {
        try map { row throws(PostgresError) in try row.decode(types) }
    }
}

/// One row; decode its columns with `decode(_:)`.
public struct PostgresRow: Sendable {
    let result: PostgresResult
    let index: Int

    /// The number of columns.
    public var columnCount: Int { result.columnCount }

    /// Decodes column `column` (zero-based) as `type`; NULL needs an Optional type.
    public func decode<Value: PostgresDecodable>(_ type: Value.Type, column: Int) throws(PostgresError)
        -> Value
    {
        guard column >= 0, column < result.columnCount else {
            throw .decoding("column \(column) requested from a row of \(result.columnCount) columns")
        }
        do {
            return try result.withCell(row: index, column: column) { bytes throws(PostgresError) in
                guard let bytes else { return try Value.decodePostgresNull() }
                return try Value.decodePostgres(bytes, type: result.columnType(column))
            }
        } catch {
            throw .decoding("column \(column) (\(result.columnName(column))) \(error.message)")
        }
    }

    /// Decodes every column, in order, as the given types: `row.decode((String, Int?).self)`.
    /// The number of types must equal the number of columns.
    public func decode<each Value: PostgresDecodable>(_ types: (repeat each Value).Type) throws(PostgresError)
        -> (repeat each Value)
    {
        var expected = 0
        for _ in repeat (each Value).self { expected += 1 }
        guard expected == result.columnCount else {
            throw .decoding("the row has \(result.columnCount) columns but \(expected) types were given")
        }
        var column = 0
        func next<V: PostgresDecodable>(_ type: V.Type) throws(PostgresError) -> V {
            defer { column += 1 }
            return try decode(type, column: column)
        }
        return (repeat try next((each Value).self))
    }
}
