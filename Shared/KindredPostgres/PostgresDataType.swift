/// A PostgreSQL type, by its OID: what a bind is sent as and what a column holds.
public struct PostgresDataType: Sendable, Hashable, CustomStringConvertible {
    /// The type's OID in `pg_type`.
    public let oid: UInt32

    /// Wraps an OID.
    public init(oid: UInt32) { self.oid = oid }

    /// Lets the server infer the parameter's type from where it is used (sent as text).
    public static let unspecified = PostgresDataType(oid: 0)
    public static let bool = PostgresDataType(oid: 16)
    public static let bytea = PostgresDataType(oid: 17)
    public static let char = PostgresDataType(oid: 18)
    public static let name = PostgresDataType(oid: 19)
    public static let int8 = PostgresDataType(oid: 20)
    public static let int2 = PostgresDataType(oid: 21)
    public static let int4 = PostgresDataType(oid: 23)
    public static let text = PostgresDataType(oid: 25)
    public static let oidType = PostgresDataType(oid: 26)
    public static let json = PostgresDataType(oid: 114)
    public static let float4 = PostgresDataType(oid: 700)
    public static let float8 = PostgresDataType(oid: 701)
    public static let unknown = PostgresDataType(oid: 705)
    public static let bpchar = PostgresDataType(oid: 1042)
    public static let varchar = PostgresDataType(oid: 1043)
    public static let date = PostgresDataType(oid: 1082)
    public static let timestamp = PostgresDataType(oid: 1114)
    public static let timestamptz = PostgresDataType(oid: 1184)
    public static let numeric = PostgresDataType(oid: 1700)
    public static let uuid = PostgresDataType(oid: 2950)
    public static let jsonb = PostgresDataType(oid: 3802)

    /// The type's SQL name for the common types, else its OID: for error messages.
    public var description: String {
        switch self {
        case .bool: "boolean"
        case .bytea: "bytea"
        case .char: "\"char\""
        case .name: "name"
        case .int8: "bigint"
        case .int2: "smallint"
        case .int4: "integer"
        case .text: "text"
        case .json: "json"
        case .float4: "real"
        case .float8: "double precision"
        case .unknown: "unknown"
        case .bpchar: "character"
        case .varchar: "character varying"
        case .date: "date"
        case .timestamp: "timestamp"
        case .timestamptz: "timestamp with time zone"
        case .numeric: "numeric"
        case .uuid: "uuid"
        case .jsonb: "jsonb"
        default: "type oid \(oid)"
        }
    }
}
