internal import CNGHTTP2

/// A list of header fields laid out as the `nghttp2_nv` array nghttp2's submit functions copy from.
struct HeaderBlock {
    var fields: [(name: String, value: String)]

    init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    /// Calls `body` with a temporary `nghttp2_nv` array; nghttp2 copies it during the submit call.
    func withNameValues<Result>(_ body: (UnsafePointer<nghttp2_nv>, Int) -> Result) -> Result {
        let total = fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
        let arena = UnsafeMutablePointer<UInt8>.allocate(capacity: max(total, 1))
        let nameValues = UnsafeMutablePointer<nghttp2_nv>.allocate(capacity: max(fields.count, 1))
        defer {
            arena.deallocate()
            nameValues.deallocate()
        }
        var offset = 0
        for (index, field) in fields.enumerated() {
            let name = arena + offset
            offset += copy(field.name, to: name)
            let value = arena + offset
            offset += copy(field.value, to: value)
            nameValues[index] = nghttp2_nv(
                name: name, value: value, namelen: field.name.utf8.count, valuelen: field.value.utf8.count,
                flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
        }
        return body(nameValues, fields.count)
    }

    private func copy(_ string: String, to target: UnsafeMutablePointer<UInt8>) -> Int {
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
