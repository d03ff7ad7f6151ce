internal import CKindredProto

/// Decoding and encoding for every generated message, through protobuf-c.
enum MessageCodec {
    /// The deepest nesting of messages accepted (protobuf's customary recursion limit).
    static let maxDepth = 100

    /// Validates the wire bytes once, unpacks them with protobuf-c, converts to Swift values once, frees.
    static func decode<M: ProtoMessage & CMessageBridge>(
        _ bytes: UnsafeRawBufferPointer, maxSize: Int
    ) throws(MessageDecodingError) -> M {
        try unpack(bytes, as: M.self, maxSize: maxSize).withStruct(M.CStruct.self) { M(c: $0) }
    }

    /// Checks the wire bytes of an `M` (the size limit, the framing of every field, UTF-8 and no NUL in strings,
    /// the nesting depth) and unpacks them with protobuf-c, which also refuses a field of the wrong wire type.
    static func unpack<M: ProtoMessage & CMessageBridge>(
        _ bytes: UnsafeRawBufferPointer, as message: M.Type, maxSize: Int
    ) throws(MessageDecodingError) -> UnpackedMessage {
        let name = M.protoMessageName
        guard bytes.count <= maxSize else {
            throw MessageDecodingError(
                messageName: name, reason: .tooLarge(size: bytes.count, limit: maxSize))
        }
        if let reason = WireValidator.problem(in: bytes, descriptor: M.cDescriptor, depthLimit: maxDepth) {
            throw MessageDecodingError(messageName: name, reason: reason)
        }
        guard let unpacked = UnpackedMessage(bytes, descriptor: M.cDescriptor) else {
            throw MessageDecodingError(messageName: name, reason: .malformed)
        }
        return unpacked
    }

    /// Builds the C message in an arena, packs it, and frees the arena.
    static func encode<M: CMessageBridge>(_ message: M) throws(MessageEncodingError) -> [UInt8] {
        let arena = CArena()
        let c = try arena.message(message, field: "")
        // The packed bytes are read from the arena's memory: keep it alive until packing is done.
        return withExtendedLifetime(arena) {
            let base = UnsafeRawPointer(c).assumingMemoryBound(to: ProtobufCMessage.self)
            let size = protobuf_c_message_get_packed_size(base)
            guard size > 0 else { return [] }
            return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
                count = protobuf_c_message_pack(base, buffer.baseAddress)
            }
        }
    }
}
