public import FoundationEssentials

/// A Swift array sent as one PostgreSQL array parameter, for `= ANY(...)` and `unnest(...)`:
/// `"SELECT ... WHERE user_id = ANY(\(PostgresArray(ids))::uuid[])"`. Strings go as `text[]`: cast in SQL.
public struct PostgresArray<Element: PostgresArrayElement>: PostgresEncodable {
    /// The elements, in order.
    public var elements: [Element]

    /// Wraps `elements`.
    public init(_ elements: [Element]) { self.elements = elements }

    public static var postgresDataType: PostgresDataType { Element.postgresArrayType }

    /// PostgreSQL's binary array: dimensions, a has-NULL flag, the element type, one dimension
    /// (length, lower bound 1), then each element as a length (-1 for NULL) and its binary value.
    public func encodePostgres(into bytes: inout [UInt8]) -> Bool {
        func append(_ value: Int32) { withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) } }
        append(1)
        let hasNullOffset = bytes.count
        append(0)
        append(Int32(bitPattern: Element.postgresElementType.oid))
        append(Int32(elements.count))
        append(1)
        var hasNull = false
        for element in elements {
            let lengthOffset = bytes.count
            append(0)
            if element.encodePostgres(into: &bytes) {
                let length = Int32(bytes.count - lengthOffset - 4).bigEndian
                withUnsafeBytes(of: length) {
                    bytes.replaceSubrange(lengthOffset..<lengthOffset + 4, with: $0)
                }
            } else {
                hasNull = true
                withUnsafeBytes(of: Int32(-1).bigEndian) {
                    bytes.replaceSubrange(lengthOffset..<lengthOffset + 4, with: $0)
                }
            }
        }
        if hasNull { bytes[hasNullOffset + 3] = 1 }
        return true
    }
}

/// A type that can be an element of a `PostgresArray`, in binary format.
public protocol PostgresArrayElement: PostgresEncodable {
    /// The element's type in the array header (`text` for String).
    static var postgresElementType: PostgresDataType { get }
    /// The array type (`_int8`, `_text`, …).
    static var postgresArrayType: PostgresDataType { get }
}

extension Int: PostgresArrayElement {
    public static var postgresElementType: PostgresDataType { .int8 }
    public static var postgresArrayType: PostgresDataType { PostgresDataType(oid: 1016) }
}

extension Int64: PostgresArrayElement {
    public static var postgresElementType: PostgresDataType { .int8 }
    public static var postgresArrayType: PostgresDataType { PostgresDataType(oid: 1016) }
}

extension Int32: PostgresArrayElement {
    public static var postgresElementType: PostgresDataType { .int4 }
    public static var postgresArrayType: PostgresDataType { PostgresDataType(oid: 1007) }
}

extension Bool: PostgresArrayElement {
    public static var postgresElementType: PostgresDataType { .bool }
    public static var postgresArrayType: PostgresDataType { PostgresDataType(oid: 1000) }
}

extension Double: PostgresArrayElement {
    public static var postgresElementType: PostgresDataType { .float8 }
    public static var postgresArrayType: PostgresDataType { PostgresDataType(oid: 1022) }
}

// A String's binary text value is its UTF-8, the same bytes it sends as an untyped parameter.
extension String: PostgresArrayElement {
    public static var postgresElementType: PostgresDataType { .text }
    public static var postgresArrayType: PostgresDataType { PostgresDataType(oid: 1009) }
}

extension Date: PostgresArrayElement {
    public static var postgresElementType: PostgresDataType { .timestamptz }
    public static var postgresArrayType: PostgresDataType { PostgresDataType(oid: 1185) }
}

// bytea[]: sealed values written a batch at a time.
extension Array: PostgresArrayElement where Element == UInt8 {
    public static var postgresElementType: PostgresDataType { .bytea }
    public static var postgresArrayType: PostgresDataType { PostgresDataType(oid: 1001) }
}

extension Optional: PostgresArrayElement where Wrapped: PostgresArrayElement {
    public static var postgresElementType: PostgresDataType { Wrapped.postgresElementType }
    public static var postgresArrayType: PostgresDataType { Wrapped.postgresArrayType }
}
