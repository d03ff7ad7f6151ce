public import KindredPostgres
internal import FoundationEssentials

// An id binds as a binary `uuid`, so the server never parses its text, and it reads back from a `uuid`
// column or from one cast `::text`.
extension ID: PostgresEncodable {
    public static var postgresDataType: PostgresDataType { .uuid }

    public func encodePostgres(into bytes: inout [UInt8]) -> Bool {
        withUnsafeBytes(of: uuid.uuid) { bytes.append(contentsOf: $0) }
        return true
    }
}

extension ID: PostgresArrayElement {
    public static var postgresElementType: PostgresDataType { .uuid }
    public static var postgresArrayType: PostgresDataType { PostgresDataType(oid: 2951) }
}

extension ID: PostgresDecodable {
    public static func decodePostgres(_ bytes: UnsafeRawBufferPointer, type: PostgresDataType)
        throws(PostgresError) -> ID
    {
        // A `uuid` column arrives as its 16 bytes: taken as they are, not printed and parsed back.
        if type == .uuid, bytes.count == 16 {
            return ID(UUID(uuid: bytes.loadUnaligned(as: uuid_t.self)))
        }
        guard let id = ID(try String.decodePostgres(bytes, type: type)) else {
            throw PostgresError(kind: .decoding, message: "has type \(type) but does not hold a uuid")
        }
        return id
    }
}
