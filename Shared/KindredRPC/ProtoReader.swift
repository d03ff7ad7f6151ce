/// Walks the fields of protobuf wire bytes: varints and length-delimited values are returned,
/// fixed-width fields skipped. Just enough to read `grpc-status-details-bin`.
struct ProtoReader {
    enum Field {
        case varint(Int, UInt64)
        case bytes(Int, ArraySlice<UInt8>)
        case skipped
    }

    private var bytes: ArraySlice<UInt8>
    /// Set when the bytes ended inside a field or held an unknown wire type.
    private(set) var failed = false

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    /// The next field, or nil at the end (or after malformed input, with `failed` set).
    mutating func next() -> Field? {
        guard !bytes.isEmpty, !failed else { return nil }
        guard let key = varint() else { return fail() }
        let number = Int(key >> 3)
        switch key & 7 {
        case 0:
            guard let value = varint() else { return fail() }
            return .varint(number, value)
        case 2:
            guard let length = varint(), length <= UInt64(bytes.count) else { return fail() }
            let value = bytes.prefix(Int(length))
            bytes = bytes.dropFirst(Int(length))
            return .bytes(number, value)
        case 1, 5:
            let width = key & 7 == 1 ? 8 : 4
            guard bytes.count >= width else { return fail() }
            bytes = bytes.dropFirst(width)
            return .skipped
        default:
            return fail()
        }
    }

    private mutating func varint() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while let byte = bytes.popFirst(), shift < 64 {
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        return nil
    }

    private mutating func fail() -> Field? {
        failed = true
        return nil
    }
}
