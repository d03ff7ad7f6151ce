public import FoundationEssentials

/// A Swift value a column can be decoded into, from PostgreSQL's binary format.
public protocol PostgresDecodable: Sendable {
    /// Decodes a non-NULL value of column type `type`; throws a one-line reason if the type does not fit.
    static func decodePostgres(_ bytes: UnsafeRawBufferPointer, type: PostgresDataType) throws(PostgresError)
        -> Self
    /// The value for NULL; only `Optional` has one.
    static func decodePostgresNull() throws(PostgresError) -> Self
}

extension PostgresDecodable {
    public static func decodePostgresNull() throws(PostgresError) -> Self {
        throw .decoding("is NULL, decode it as Optional<\(Self.self)>")
    }

    static func mismatch(_ type: PostgresDataType) -> PostgresError {
        .decoding("has type \(type), which does not decode as \(Self.self)")
    }
}

extension UnsafeRawBufferPointer {
    fileprivate func bigEndian<T: FixedWidthInteger>(_: T.Type) throws(PostgresError) -> T {
        guard count == MemoryLayout<T>.size else {
            throw .decoding("has \(count) bytes, expected \(T.bitWidth / 8)")
        }
        return T(bigEndian: loadUnaligned(as: T.self))
    }

    fileprivate func integer(_ type: PostgresDataType) throws(PostgresError) -> Int64? {
        switch type {
        case .int2: Int64(try bigEndian(Int16.self))
        case .int4: Int64(try bigEndian(Int32.self))
        case .int8: try bigEndian(Int64.self)
        default: nil
        }
    }
}

extension Int64: PostgresDecodable {
    public static func decodePostgres(_ bytes: UnsafeRawBufferPointer, type: PostgresDataType)
        throws(PostgresError) -> Int64
    {
        guard let value = try bytes.integer(type) else { throw mismatch(type) }
        return value
    }
}

extension Int: PostgresDecodable {
    public static func decodePostgres(_ bytes: UnsafeRawBufferPointer, type: PostgresDataType)
        throws(PostgresError) -> Int
    {
        Int(try Int64.decodePostgres(bytes, type: type))
    }
}

extension Int32: PostgresDecodable {
    public static func decodePostgres(_ bytes: UnsafeRawBufferPointer, type: PostgresDataType)
        throws(PostgresError) -> Int32
    {
        guard type == .int2 || type == .int4, let value = try bytes.integer(type) else {
            throw mismatch(type)
        }
        return Int32(value)
    }
}

extension Bool: PostgresDecodable {
    public static func decodePostgres(_ bytes: UnsafeRawBufferPointer, type: PostgresDataType)
        throws(PostgresError) -> Bool
    {
        guard type == .bool, bytes.count == 1 else { throw mismatch(type) }
        return bytes[0] != 0
    }
}

extension Double: PostgresDecodable {
    public static func decodePostgres(_ bytes: UnsafeRawBufferPointer, type: PostgresDataType)
        throws(PostgresError) -> Double
    {
        switch type {
        case .float8: Double(bitPattern: try bytes.bigEndian(UInt64.self))
        case .float4: Double(Float(bitPattern: try bytes.bigEndian(UInt32.self)))
        default: throw mismatch(type)
        }
    }
}

extension Array: PostgresDecodable where Element == UInt8 {
    public static func decodePostgres(_ bytes: UnsafeRawBufferPointer, type: PostgresDataType)
        throws(PostgresError) -> [UInt8]
    {
        guard type == .bytea else { throw mismatch(type) }
        return [UInt8](bytes)
    }
}

extension String: PostgresDecodable {
    /// Text-like columns as they are; `uuid` in its canonical lowercase form; `jsonb` as its JSON text.
    public static func decodePostgres(_ bytes: UnsafeRawBufferPointer, type: PostgresDataType)
        throws(PostgresError) -> String
    {
        switch type {
        case .text, .varchar, .bpchar, .name, .json, .unknown, .char:
            return String(decoding: bytes, as: UTF8.self)
        case .jsonb:
            guard bytes.first == 1 else { throw .decoding("holds jsonb of an unknown binary version") }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes.dropFirst()), as: UTF8.self)
        case .uuid:
            guard bytes.count == 16 else { throw .decoding("holds a uuid of \(bytes.count) bytes") }
            return uuidString(bytes)
        default:
            throw mismatch(type)
        }
    }

    private static func uuidString(_ bytes: UnsafeRawBufferPointer) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension Date: PostgresDecodable {
    /// `timestamptz` (and `timestamp`, read as UTC); PostgreSQL's infinities become `distantFuture`/`distantPast`.
    public static func decodePostgres(_ bytes: UnsafeRawBufferPointer, type: PostgresDataType)
        throws(PostgresError) -> Date
    {
        guard type == .timestamptz || type == .timestamp else { throw mismatch(type) }
        return PostgresTime.date(microsecondsSince2000: try bytes.bigEndian(Int64.self))
    }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    public static func decodePostgres(_ bytes: UnsafeRawBufferPointer, type: PostgresDataType)
        throws(PostgresError) -> Wrapped?
    {
        try Wrapped.decodePostgres(bytes, type: type)
    }

    public static func decodePostgresNull() throws(PostgresError) -> Wrapped? { nil }
}
