/// A request's HEADERS block as gRPC reads it, accumulated field by field from nghttp2.
struct RequestHead {
    var method: String?
    var path: String?
    /// Whether `content-type` is gRPC's; nil when the header is missing.
    var hasGRPCContentType: Bool?
    var timeout: Duration?
    var encoding: String?
    var acceptEncoding: String?
    var metadata = Metadata()
    /// Header list size as HTTP/2 counts it: name + value + 32 per field.
    private(set) var size = 0
    private var timeoutMalformed = false

    /// How a request is refused before its handler runs.
    enum Rejection: Error, Equatable {
        /// A plain HTTP answer (415 for a non-gRPC content type, 405 for a method other than POST).
        case http(status: Int)
        /// A gRPC status, sent trailers-only.
        case status(StatusCode, String)
    }

    /// Adds one received header field; fields past `limit` bytes are counted but not kept.
    mutating func add(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>, limit: Int) {
        size += name.count + value.count + 32
        guard size <= limit else { return }
        if name.first == UInt8(ascii: ":") {
            if Self.matches(name, ":path") {
                path = Self.string(value)
            } else if Self.matches(name, ":method") {
                method = Self.string(value)
            }
            return
        }
        if Self.matches(name, "content-type") {
            hasGRPCContentType = Self.isGRPCContentType(value)
        } else if Self.matches(name, "grpc-timeout") {
            timeout = GRPCTimeout.parse(value)
            timeoutMalformed = timeout == nil
        } else if Self.matches(name, "grpc-encoding") {
            encoding = Self.string(value)
        } else if Self.matches(name, "grpc-accept-encoding") {
            acceptEncoding = Self.string(value)
        } else if Self.matches(name, "te") {
            return
        } else if let entry = Metadata.entry(name: Self.string(name), value: value) {
            metadata.append(entry)
        }
    }

    /// Checks the block once it is complete; returns the request's message encoding.
    func validate(limit: Int) -> Result<MessageEncoding, Rejection> {
        if size > limit {
            return .failure(.status(.resourceExhausted, "request headers exceed \(limit) bytes"))
        }
        guard method == "POST" else { return .failure(.http(status: 405)) }
        guard hasGRPCContentType == true else { return .failure(.http(status: 415)) }
        if timeoutMalformed { return .failure(.status(.invalidArgument, "malformed grpc-timeout")) }
        guard let encoding, encoding != "identity" else { return .success(.identity) }
        guard let known = MessageEncoding(rawValue: encoding) else {
            return .failure(.status(.unimplemented, "grpc-encoding \(encoding) is not supported"))
        }
        return .success(known)
    }

    /// `application/grpc`, optionally followed by `+subtype` or `;parameters`.
    static func isGRPCContentType(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        let prefix: StaticString = "application/grpc"
        let count = prefix.utf8CodeUnitCount
        guard value.count >= count, Self.matches(UnsafeBufferPointer(rebasing: value[..<count]), prefix)
        else { return false }
        return value.count == count || value[count] == UInt8(ascii: "+") || value[count] == UInt8(ascii: ";")
    }

    /// Whether the client accepts gzip responses.
    var acceptsGzip: Bool { acceptEncoding.map { MessageEncoding.gzip.isListed(in: $0) } ?? false }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard bytes.count == literal.utf8CodeUnitCount else { return false }
        let expected = literal.utf8Start
        for index in 0..<bytes.count where bytes[index] != expected[index] { return false }
        return true
    }

    private static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
