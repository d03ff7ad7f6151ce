internal import CKindredProto

/// Converting C field values to Swift values, used by the generated `init(c:)`.
enum CRead {
    /// A string field; the wire validator has already checked that it is UTF-8 without a NUL.
    static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    static func bytes(_ data: ProtobufCBinaryData) -> [UInt8] {
        guard data.len > 0, let base = data.data else { return [] }
        return Array(UnsafeBufferPointer(start: base, count: data.len))
    }

    /// The numeric value of a protoc-c enum (imported as a struct over `UInt32`).
    static func enumValue<C: RawRepresentable>(_ value: C) -> Int32 where C.RawValue: BinaryInteger {
        Int32(truncatingIfNeeded: value.rawValue)
    }

    static func array<T>(_ pointer: UnsafeMutablePointer<T>?, _ count: Int) -> [T] {
        guard count > 0, let pointer else { return [] }
        return Array(UnsafeBufferPointer(start: pointer, count: count))
    }

    static func array<T, U>(_ pointer: UnsafeMutablePointer<T>?, _ count: Int, _ transform: (T) -> U) -> [U] {
        guard count > 0, let pointer else { return [] }
        return UnsafeBufferPointer(start: pointer, count: count).map(transform)
    }

    static func messages<M: CMessageBridge>(
        _ pointer: CPointerArray<M.CStruct>?, _ count: Int
    ) -> [M] {
        guard count > 0, let pointer else { return [] }
        return UnsafeBufferPointer(start: pointer, count: count).compactMap { $0.map { M(c: $0) } }
    }

    /// A map field: protobuf-c holds it as repeated entry messages; a later duplicate key wins, as on the wire.
    static func map<E, K: Hashable, V>(
        _ pointer: CPointerArray<E>?, _ count: Int, _ entry: (E) -> (K, V)
    ) -> [K: V] {
        var result: [K: V] = [:]
        result.reserveCapacity(count)
        for element in array(pointer, count) {
            guard let element else { continue }
            let (key, value) = entry(element.pointee)
            result[key] = value
        }
        return result
    }
}

/// Converting Swift values to C field values, used by the generated `fill(_:arena:)`.
enum CWrite {
    static func enumValue<C: RawRepresentable>(_ value: some ProtoEnum) -> C
    where C.RawValue: FixedWidthInteger {
        // protoc-c enums import as structs whose init(rawValue:) accepts any value.
        C(rawValue: C.RawValue(truncatingIfNeeded: value.rawValue))!
    }

    /// The `<oneof>_case` value that says which member of a oneof is set: its field number.
    static func oneofCase<C: RawRepresentable>(_ fieldNumber: Int32) -> C
    where C.RawValue: FixedWidthInteger {
        C(rawValue: C.RawValue(truncatingIfNeeded: fieldNumber))!
    }
}
