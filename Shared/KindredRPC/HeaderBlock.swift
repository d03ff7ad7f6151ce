internal import CNGHTTP2

/// A list of header fields laid out as the `nghttp2_nv` array nghttp2's submit functions copy from.
struct HeaderBlock {
    var fields: [(name: String, value: String)]
    /// One more field after `fields`, sent never indexed: a client call's `grpc-timeout`, added without copying
    /// the list its attempts share. Its value differs on almost every call, so indexing it filled HPACK's dynamic
    /// table with entries no later call matched (evicting those that do) and made the encoder walk them all,
    /// in one hash bucket, for every call (nghttp2's `hd_map_find`: ~5% of the load tool's samples).
    var last: (name: String, value: String)?

    init(_ fields: [(name: String, value: String)] = [], last: (name: String, value: String)? = nil) {
        self.fields = fields
        self.last = last
    }

    /// Calls `body` with a temporary `nghttp2_nv` array; nghttp2 copies it during the submit call.
    func withNameValues<Result>(_ body: (UnsafePointer<nghttp2_nv>, Int) -> Result) -> Result {
        let count = fields.count + (last == nil ? 0 : 1)
        var total = fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        if let last { total += last.name.utf8.count + last.value.utf8.count }
        // One allocation: the array, then the bytes it points into.
        let arrayBytes = MemoryLayout<nghttp2_nv>.stride * max(count, 1)
        let storage = UnsafeMutableRawPointer.allocate(
            byteCount: arrayBytes + total, alignment: MemoryLayout<nghttp2_nv>.alignment)
        defer { storage.deallocate() }
        let nameValues = storage.bindMemory(to: nghttp2_nv.self, capacity: max(count, 1))
        var next = (storage + arrayBytes).assumingMemoryBound(to: UInt8.self)
        func lay(_ field: (name: String, value: String), at index: Int, flags: nghttp2_nv_flag) {
            let name = next
            let nameLength = copy(field.name, to: name)
            let value = name + nameLength
            let valueLength = copy(field.value, to: value)
            next = value + valueLength
            nameValues[index] = nghttp2_nv(
                name: name, value: value, namelen: nameLength, valuelen: valueLength,
                flags: UInt8(flags.rawValue))
        }
        for (index, field) in fields.enumerated() { lay(field, at: index, flags: NGHTTP2_NV_FLAG_NONE) }
        if let last { lay(last, at: fields.count, flags: NGHTTP2_NV_FLAG_NO_INDEX) }
        return body(nameValues, count)
    }

    /// Copies a string's UTF-8 bytes, in one move when they are contiguous (native strings, a bearer token).
    private func copy(_ string: String, to target: UnsafeMutablePointer<UInt8>) -> Int {
        if let count = string.utf8.withContiguousStorageIfAvailable({ bytes in
            if let base = bytes.baseAddress { target.update(from: base, count: bytes.count) }
            return bytes.count
        }) {
            return count
        }
        var count = 0
        for byte in string.utf8 {
            target[count] = byte
            count += 1
        }
        return count
    }
}

/// The header blocks of every successful plain call, built once and never freed, sent without copying.
struct StaticHeaders: @unchecked Sendable {
    // Immutable after initialisation and immortal: safe to share across loop threads.
    let response: UnsafePointer<nghttp2_nv>
    let responseCount: Int
    let okTrailers: UnsafePointer<nghttp2_nv>

    static let shared = StaticHeaders()

    private init() {
        let response = UnsafeMutablePointer<nghttp2_nv>.allocate(capacity: 2)
        response[0] = Self.immortal(":status", "200")
        response[1] = Self.immortal("content-type", "application/grpc")
        self.response = UnsafePointer(response)
        responseCount = 2
        let trailers = UnsafeMutablePointer<nghttp2_nv>.allocate(capacity: 1)
        trailers[0] = Self.immortal("grpc-status", "0")
        okTrailers = UnsafePointer(trailers)
    }

    private static func immortal(_ name: String, _ value: String) -> nghttp2_nv {
        let nameBytes = Array(name.utf8)
        let valueBytes = Array(value.utf8)
        let namePointer = UnsafeMutablePointer<UInt8>.allocate(capacity: nameBytes.count)
        namePointer.initialize(from: nameBytes, count: nameBytes.count)
        let valuePointer = UnsafeMutablePointer<UInt8>.allocate(capacity: valueBytes.count)
        valuePointer.initialize(from: valueBytes, count: valueBytes.count)
        let flags = NGHTTP2_NV_FLAG_NO_COPY_NAME.rawValue | NGHTTP2_NV_FLAG_NO_COPY_VALUE.rawValue
        return nghttp2_nv(
            name: namePointer, value: valuePointer, namelen: nameBytes.count, valuelen: valueBytes.count,
            flags: UInt8(flags))
    }
}
