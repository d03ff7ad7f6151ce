extension ProtoMessage {
    /// Checks wire bytes as decoding does (`MessageCodec.unpack`) and refuses what it refuses for the same
    /// reason, without building the Swift value: for a caller that must know an answer came well formed but has
    /// no use for its content (the load tool's reads, whose strings and arrays would be the tool's cost, not the
    /// stack's).
    public static func validateWire(_ bytes: UnsafeRawBufferPointer, maxSize: Int)
        throws(MessageDecodingError)
    {
        guard let bridged = Self.self as? any (ProtoMessage & CMessageBridge).Type else {
            _ = try Self(serializedBytes: bytes, maxSize: maxSize)
            return
        }
        _ = try MessageCodec.unpack(bytes, as: bridged, maxSize: maxSize)
    }
}
