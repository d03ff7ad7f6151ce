internal import CKindredProto

/// A C array of pointers, as protoc-c holds repeated strings and messages (`char **`, `Foo **`).
typealias CPointerArray<T> = UnsafeMutablePointer<UnsafeMutablePointer<T>?>

/// The memory of one C message being built for packing: every allocation comes from here and is freed
/// together when the arena goes away, so an encode frees exactly once whatever path it takes.
final class CArena {
    /// The newest chunk; each chunk's first 16 bytes link to the one before (nil for the first).
    private var newestChunk: UnsafeMutableRawPointer?
    private var cursor: UnsafeMutableRawPointer?
    private var remaining = 0
    /// Small enough for glibc's per-thread cache (1,032 bytes), large enough for most messages.
    static let defaultChunkSize = 1008
    private static let linkSize = 16
    /// The size of each chunk but one that a single allocation outgrows.
    private let chunkSize: Int

    /// An empty arena whose chunks hold `chunkSize` bytes (at most 1 MiB each).
    init(chunkSize: Int = CArena.defaultChunkSize) {
        self.chunkSize = min(chunkSize, 1 << 20)
    }

    deinit {
        var chunk = newestChunk
        while let current = chunk {
            chunk = current.load(as: UnsafeMutableRawPointer?.self)
            current.deallocate()
        }
    }

    /// Uninitialised memory, 16-byte aligned (enough for any protoc-c struct or scalar).
    func allocate(byteCount: Int) -> UnsafeMutableRawPointer {
        let size = (max(byteCount, 1) + 15) & ~15
        if size > remaining {
            let chunkSize = max(size + Self.linkSize, self.chunkSize)
            let chunk = UnsafeMutableRawPointer.allocate(byteCount: chunkSize, alignment: 16)
            chunk.storeBytes(of: newestChunk, as: UnsafeMutableRawPointer?.self)
            newestChunk = chunk
            cursor = chunk + Self.linkSize
            remaining = chunkSize - Self.linkSize
        }
        let pointer = cursor.unsafelyUnwrapped
        cursor = pointer + size
        remaining -= size
        return pointer
    }

    /// An initialised, empty C message described by `descriptor`.
    func emptyMessage(_ descriptor: UnsafePointer<ProtobufCMessageDescriptor>) -> UnsafeMutableRawPointer {
        let raw = allocate(byteCount: descriptor.pointee.sizeof_message)
        // Every protoc-c struct starts with its ProtobufCMessage `base`; message_init sets it and the defaults.
        let base = raw.bindMemory(to: ProtobufCMessage.self, capacity: 1)
        descriptor.pointee.message_init(base)
        return raw
    }

    /// The C form of `message`, whose fields are filled from this arena.
    func message<M: CMessageBridge>(_ message: M, field: String) throws(MessageEncodingError)
        -> UnsafeMutablePointer<M.CStruct>
    {
        // protoc-c structs are plain C data: viewing the initialised bytes as the struct is what C does.
        let c = emptyMessage(M.cDescriptor).assumingMemoryBound(to: M.CStruct.self)
        do {
            try message.fill(c, arena: self)
        } catch {
            throw MessageEncodingError(
                fieldPath: field.isEmpty ? error.fieldPath : "\(field).\(error.fieldPath)")
        }
        return c
    }

    func optionalMessage<M: CMessageBridge>(_ message: M?, field: String) throws(MessageEncodingError)
        -> UnsafeMutablePointer<M.CStruct>?
    {
        guard let message else { return nil }
        return try self.message(message, field: field)
    }

    /// A NUL-terminated copy; a string holding a NUL cannot be carried by protoc-c's `char *`.
    func string(_ string: String, field: String) throws(MessageEncodingError) -> UnsafeMutablePointer<CChar> {
        var string = string
        let copy: UnsafeMutablePointer<CChar>? = string.withUTF8 { utf8 in
            guard !utf8.contains(0) else { return nil }
            let copy = allocate(byteCount: utf8.count + 1).bindMemory(
                to: CChar.self, capacity: utf8.count + 1)
            if let base = utf8.baseAddress {
                UnsafeMutableRawPointer(copy).copyMemory(from: base, byteCount: utf8.count)
            }
            copy[utf8.count] = 0
            return copy
        }
        guard let copy else { throw MessageEncodingError(fieldPath: field) }
        return copy
    }

    func bytes(_ bytes: [UInt8]) -> ProtobufCBinaryData {
        guard !bytes.isEmpty else { return ProtobufCBinaryData(len: 0, data: nil) }
        let copy = allocate(byteCount: bytes.count).bindMemory(to: UInt8.self, capacity: bytes.count)
        copy.initialize(from: bytes, count: bytes.count)
        return ProtobufCBinaryData(len: bytes.count, data: copy)
    }

    /// A C array of `values`, or nil when empty (protoc-c reads nothing when the count is 0).
    func array<T>(_ values: [T]) -> UnsafeMutablePointer<T>? {
        array(values) { $0 }
    }

    func array<T, U, Failure: Error>(
        _ values: [T], _ transform: (T) throws(Failure) -> U
    ) throws(Failure) -> UnsafeMutablePointer<U>? {
        guard !values.isEmpty else { return nil }
        let elements = allocate(byteCount: MemoryLayout<U>.stride * values.count)
            .bindMemory(to: U.self, capacity: values.count)
        for (index, value) in values.enumerated() {
            (elements + index).initialize(to: try transform(value))
        }
        return elements
    }

    func strings(_ values: [String], field: String) throws(MessageEncodingError) -> CPointerArray<CChar>? {
        try array(values) { (value) throws(MessageEncodingError) in try string(value, field: field) }
    }

    func messages<M: CMessageBridge>(_ values: [M], field: String) throws(MessageEncodingError)
        -> CPointerArray<M.CStruct>?
    {
        try array(values) { (value) throws(MessageEncodingError) in try message(value, field: field) }
    }

    /// A map field as protobuf-c's repeated entry messages, in key order so that encoding is deterministic.
    func mapEntries<K: Comparable, V, E>(
        _ map: [K: V], field: String, descriptor: UnsafePointer<ProtobufCMessageDescriptor>,
        _ fill: (UnsafeMutablePointer<E>, K, V) throws(MessageEncodingError) -> Void
    ) throws(MessageEncodingError) -> CPointerArray<E>? {
        try array(map.sorted { $0.key < $1.key }) { (pair) throws(MessageEncodingError) in
            let entry = emptyMessage(descriptor).assumingMemoryBound(to: E.self)
            try fill(entry, pair.key, pair.value)
            return entry
        }
    }
}
