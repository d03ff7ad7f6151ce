internal import CKindredProto

/// A message unpacked by `protobuf_c_message_unpack` into an arena of its own: every string, array and
/// submessage protobuf-c allocates comes from the arena, and all of it is freed together when this goes away.
/// With glibc's allocator, one `malloc` per field was a tenth of the load tool's CPU decoding list answers.
struct UnpackedMessage: ~Copyable {
    let base: UnsafeMutablePointer<ProtobufCMessage>
    private let arena: CArena

    /// Unpacks `bytes`, or returns nil when protobuf-c rejects them.
    init?(_ bytes: UnsafeRawBufferPointer, descriptor: UnsafePointer<ProtobufCMessageDescriptor>) {
        // The unpacked structs take about as much room as the wire bytes, or a little more.
        let arena = CArena(chunkSize: 2 * bytes.count + descriptor.pointee.sizeof_message + 256)
        var allocator = ProtobufCAllocator(
            alloc: { data, size in
                Unmanaged<CArena>.fromOpaque(data.unsafelyUnwrapped).takeUnretainedValue()
                    .allocate(byteCount: size)
            },
            // protobuf-c frees its scratch space and, on a failure, what it unpacked so far: the arena's
            // memory goes back when the arena does.
            free: { _, _ in },
            allocator_data: Unmanaged.passUnretained(arena).toOpaque())
        let data = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let unpacked = withExtendedLifetime(arena) {
            protobuf_c_message_unpack(descriptor, &allocator, bytes.count, data)
        }
        guard let unpacked else { return nil }
        self.base = unpacked
        self.arena = arena
    }

    /// The message as its generated struct; valid only while `self` lives.
    func withStruct<C, R>(_ type: C.Type, _ body: (UnsafePointer<C>) -> R) -> R {
        // `base` is the first member of every protoc-c struct, so the pointers coincide (C's idiom).
        withExtendedLifetime(arena) { body(UnsafeRawPointer(base).assumingMemoryBound(to: C.self)) }
    }
}
