/// A statement and its bind parameters. Interpolated values become `$1`, `$2`…, never SQL text:
/// `"SELECT name FROM identity.accounts WHERE id = \(id)"`. Raw SQL only through `init(unsafeSQL:)`.
public struct PostgresQuery: Sendable, ExpressibleByStringInterpolation {
    /// The SQL text with `$n` placeholders.
    public private(set) var sql: String
    var binds: PostgresBinds
    /// Declared by `StatementRunner.pureRead(_:)`: it may share an implicit transaction with strangers'
    /// reads. Never guessed from the text.
    var isPureRead = false

    /// Takes `sql` verbatim. Only for SQL built from trusted constants (identifiers checked by the caller):
    /// anything from a request belongs in a bind.
    public init(unsafeSQL sql: String) {
        self.sql = sql
        self.binds = PostgresBinds()
    }

    /// A literal with no interpolation is trusted SQL written in the source.
    public init(stringLiteral value: String) {
        self.init(unsafeSQL: value)
    }

    /// Builds the SQL and the binds from an interpolated literal.
    public init(stringInterpolation: StringInterpolation) {
        self.sql = stringInterpolation.sql
        self.binds = stringInterpolation.binds
    }

    /// Appends `value` as the next bind parameter.
    public mutating func append<Value: PostgresEncodable>(bind value: Value) {
        binds.append(value)
        sql += "$\(binds.count)"
    }

    /// Appends trusted SQL text (constants or checked identifiers), never anything from a request.
    public mutating func append(unsafeSQL text: String) {
        sql += text
    }

    /// Appends `fragment`, its parameters numbered on after this query's: for a statement composed of parts
    /// that other modules write (an outbox's insert as one CTE of a service's write). The fragment's text
    /// may hold `$` only in its own placeholders, as a query built by interpolation does.
    public mutating func append(_ fragment: PostgresQuery) {
        sql += Self.renumbered(fragment.sql, after: binds.count, expecting: fragment.binds.count)
        binds.append(contentsOf: fragment.binds)
    }

    /// `sql` with each placeholder `$n` written `$(n + offset)`; traps unless its placeholders are exactly
    /// `$1` … `$count`, in order, so text with another `$` in it is never renumbered by mistake.
    private static func renumbered(_ sql: String, after offset: Int, expecting count: Int) -> String {
        // Over the contiguous UTF-8 bytes: `$` and digits are ASCII; walking Characters cost a grapheme scan per
        // byte, and appending slices of a UTF8View copied byte by byte (perf: the outbox's CTE, every write).
        let dollar = UInt8(ascii: "$")
        let zero = UInt8(ascii: "0")
        var sql = sql
        return sql.withUTF8 { bytes in
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count + 4 * count)
            var seen = 0
            var position = 0
            while let at = bytes[position...].firstIndex(of: dollar) {
                result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<at]))
                var end = at + 1
                var number = 0
                while end < bytes.count, end - at <= 6, bytes[end] >= zero, bytes[end] <= zero + 9 {
                    number = number &* 10 &+ Int(bytes[end] - zero)
                    end += 1
                }
                let digitCount = end - at - 1
                seen += 1
                precondition(
                    digitCount > 0 && digitCount < 6 && number == seen,
                    "a query fragment holds \"$\" outside its placeholders")
                result.append(dollar)
                result.append(contentsOf: String(seen + offset).utf8)
                position = end
            }
            precondition(seen == count, "a query fragment's placeholders do not match its binds")
            result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position...]))
            return String(decoding: result, as: UTF8.self)
        }
    }

    /// Builds a query: literal segments are SQL, interpolated values are binds.
    public struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var binds = PostgresBinds()

        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + 3 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        /// Binds `value` as the next parameter (`$n`).
        public mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value) {
            binds.append(value)
            sql += "$\(binds.count)"
        }

        /// Binds `value` as the next parameter (`$n`); nil binds NULL.
        public mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value?) {
            // Unwrapped here, not bound as an Optional: binding `Value?` made the runtime look up the metadata
            // of `Optional<Value>` on every call (perf, every statement with a nullable bind).
            if let value { binds.append(value) } else { binds.appendNull(of: Value.self) }
            sql += "$\(binds.count)"
        }

        /// Inserts trusted SQL text (a constant fragment of a storage file), never anything from a request.
        public mutating func appendInterpolation(unsafeSQL text: String) {
            sql += text
        }

        /// Inserts `fragment`, its parameters numbered on after those before it (`PostgresQuery.append(_:)`).
        public mutating func appendInterpolation(_ fragment: PostgresQuery) {
            var query = PostgresQuery(unsafeSQL: sql)
            query.binds = binds
            query.append(fragment)
            (sql, binds) = (query.sql, query.binds)
        }
    }
}

/// Bind values packed for libpq: one byte buffer, with text values NUL-terminated as libpq reads them.
struct PostgresBinds: Sendable {
    private(set) var bytes: [UInt8] = []
    private(set) var offsets: [Int] = []
    /// -1 for NULL, as libpq expects.
    private(set) var lengths: [Int32] = []
    private(set) var types: [UInt32] = []
    private(set) var formats: [Int32] = []
    /// Set when a text value holds a NUL byte, which PostgreSQL text cannot carry; reported at execution.
    private(set) var invalidBind: Int?

    var count: Int { types.count }

    /// The error a statement with an invalid bind gets instead of being sent.
    var invalidBindError: PostgresError? {
        invalidBind.map {
            PostgresError(kind: .invalidBind, message: "bind parameter $\($0) is text holding a NUL byte")
        }
    }

    /// Appends `other`'s values after these, in order.
    mutating func append(contentsOf other: PostgresBinds) {
        if invalidBind == nil, let invalid = other.invalidBind { invalidBind = count + invalid }
        offsets += other.offsets.map { $0 + bytes.count }
        bytes += other.bytes
        lengths += other.lengths
        types += other.types
        formats += other.formats
    }

    /// Appends NULL typed as `Value`, as `append(Optional<Value>.none)` would.
    mutating func appendNull<Value: PostgresEncodable>(of _: Value.Type) {
        let type = Value.postgresDataType
        offsets.append(bytes.count)
        types.append(type.oid)
        formats.append(type == .unspecified ? 0 : 1)
        lengths.append(-1)
    }

    mutating func append<Value: PostgresEncodable>(_ value: Value) {
        let type = Value.postgresDataType
        let isText = type == .unspecified
        let start = bytes.count
        offsets.append(start)
        types.append(type.oid)
        formats.append(isText ? 0 : 1)
        guard value.encodePostgres(into: &bytes) else {
            lengths.append(-1)
            return
        }
        lengths.append(Int32(bytes.count - start))
        if isText {
            if invalidBind == nil, bytes[start...].contains(0) { invalidBind = count }
            bytes.append(0)
        }
    }
}
