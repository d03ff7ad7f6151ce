internal import CKindredProto

/// Walks wire bytes once against a protobuf-c descriptor before protobuf-c unpacks them, catching what
/// protobuf-c does not: invalid UTF-8 or a NUL in a string field (its `char *` would silently cut the
/// string), and nesting deep enough to exhaust the stack. Unknown fields are skipped, not refused.
enum WireValidator {
    static func problem(
        in bytes: UnsafeRawBufferPointer, descriptor: UnsafePointer<ProtobufCMessageDescriptor>,
        depthLimit: Int
    ) -> MessageDecodingError.Reason? {
        var reader = WireReader(bytes)
        return message(&reader, descriptor: descriptor, depthLeft: depthLimit)
    }

    private static func message(
        _ reader: inout WireReader, descriptor: UnsafePointer<ProtobufCMessageDescriptor>, depthLeft: Int
    ) -> MessageDecodingError.Reason? {
        guard depthLeft > 0 else { return .malformed }
        while !reader.isAtEnd {
            guard let tag = reader.varint(), tag >> 3 > 0, tag >> 3 <= 0x1FFF_FFFF else { return .malformed }
            let field = protobuf_c_message_descriptor_get_field(descriptor, UInt32(tag >> 3))
            switch tag & 7 {
            case 0: guard reader.varint() != nil else { return .malformed }
            case 1: guard reader.skip(8) else { return .malformed }
            case 5: guard reader.skip(4) else { return .malformed }
            case 2:
                guard let length = reader.varint(), let payload = reader.take(length) else {
                    return .malformed
                }
                if let field, let problem = lengthDelimited(payload, field: field, depthLeft: depthLeft) {
                    return problem
                }
            default: return .malformed  // groups (3, 4) are unsupported by protobuf-c; 6 and 7 do not exist
            }
        }
        return nil
    }

    private static func lengthDelimited(
        _ payload: UnsafeRawBufferPointer, field: UnsafePointer<ProtobufCFieldDescriptor>, depthLeft: Int
    ) -> MessageDecodingError.Reason? {
        switch field.pointee.type {
        case PROTOBUF_C_TYPE_STRING:
            return stringProblem(payload)
        case PROTOBUF_C_TYPE_MESSAGE:
            let nested = field.pointee.descriptor.assumingMemoryBound(to: ProtobufCMessageDescriptor.self)
            var reader = WireReader(payload)
            return message(&reader, descriptor: nested, depthLeft: depthLeft - 1)
        default:
            return nil
        }
    }

    static func stringProblem(_ bytes: UnsafeRawBufferPointer) -> MessageDecodingError.Reason? {
        var ascii = true
        for byte in bytes {
            if byte == 0 { return .embeddedNUL }
            if byte >= 0x80 { ascii = false }
        }
        if ascii { return nil }
        return String(validating: bytes, as: UTF8.self) == nil ? .invalidUTF8 : nil
    }
}

/// A cursor over wire bytes that never reads past the end.
struct WireReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset >= bytes.count }

    /// A base-128 varint of at most 10 bytes, or nil if truncated or too long.
    mutating func varint() -> UInt64? {
        var value: UInt64 = 0
        for shift in stride(from: 0, to: 70, by: 7) {
            guard offset < bytes.count else { return nil }
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte & 0x80 == 0 { return value }
        }
        return nil
    }

    mutating func skip(_ count: Int) -> Bool {
        take(UInt64(count)) != nil
    }

    mutating func take(_ count: UInt64) -> UnsafeRawBufferPointer? {
        guard count <= UInt64(bytes.count - offset) else { return nil }
        let slice = UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + Int(count)])
        offset += Int(count)
        return slice
    }
}
