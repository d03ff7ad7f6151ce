internal import CKindredProto

/// The single owner of a message returned by `protobuf_c_message_unpack`: freed once, when it goes away.
struct UnpackedMessage: ~Copyable {
    let base: UnsafeMutablePointer<ProtobufCMessage>

    /// Unpacks `bytes`, or returns nil when protobuf-c rejects them.
    init?(_ bytes: UnsafeRawBufferPointer, descriptor: UnsafePointer<ProtobufCMessageDescriptor>) {
        let data = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        guard let base = protobuf_c_message_unpack(descriptor, nil, bytes.count, data) else { return nil }
        self.base = base
    }

    deinit {
        protobuf_c_message_free_unpacked(base, nil)
    }

    /// The message as its generated struct; valid only while `self` lives.
    func withStruct<C, R>(_ type: C.Type, _ body: (UnsafePointer<C>) -> R) -> R {
        // `base` is the first member of every protoc-c struct, so the pointers coincide (C's idiom).
        body(UnsafeRawPointer(base).assumingMemoryBound(to: C.self))
    }
}
