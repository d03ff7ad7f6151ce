extension ProtoMessage {
    /// Checks wire bytes as decoding does (the size limit, the framing of every field, UTF-8 and no NUL in
    /// strings, the nesting depth, then protobuf-c's unpacking, which also refuses a field of the wrong wire
    /// type) and refuses what it refuses for the same reason, without building the Swift value: for a caller
    /// that must know an answer came well formed but has no use for its content (the load tool's reads, whose
    /// strings and arrays would be the tool's cost, not the stack's).
    public static func validateWire(_ bytes: UnsafeRawBufferPointer, maxSize: Int)
        throws(MessageDecodingError)
    {
        guard let bridged = Self.self as? any CMessageBridge.Type else {
            _ = try Self(serializedBytes: bytes, maxSize: maxSize)
            return
        }
        guard bytes.count <= maxSize else {
            throw MessageDecodingError(
                messageName: protoMessageName, reason: .tooLarge(size: bytes.count, limit: maxSize))
        }
        let descriptor = bridged.cDescriptor
        if let reason = WireValidator.problem(
            in: bytes, descriptor: descriptor, depthLimit: MessageCodec.maxDepth)
        {
            throw MessageDecodingError(messageName: protoMessageName, reason: reason)
        }
        guard UnpackedMessage(bytes, descriptor: descriptor) != nil else {
            throw MessageDecodingError(messageName: protoMessageName, reason: .malformed)
        }
    }
}
