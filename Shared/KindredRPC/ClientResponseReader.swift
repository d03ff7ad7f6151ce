internal import CNGHTTP2
import KindredAuth

/// Reads one gRPC response from its HTTP/2 stream events: checks the response headers, reassembles
/// and inflates messages, and turns the trailers (or an abnormal stream end) into the call's status.
struct ClientResponseReader {
    /// What the caller does after one event.
    enum Step: Equatable {
        /// Deliver these message payloads (possibly none) and keep reading.
        case messages([[UInt8]])
        /// The call is over: nil for OK, otherwise the error the caller sees.
        case finished(RPCError?)
        /// The response is unusable: reset the stream and report this error.
        case abort(RPCError)
    }

    private var deframer: MessageDeframer
    private var encoding = MessageEncoding.identity
    private var isFinished = false
    /// The response header metadata, once the headers arrived.
    private(set) var headers = Metadata()
    /// The trailing metadata, once the call ended with trailers.
    private(set) var trailers = Metadata()

    init(maxMessageSize: Int) {
        deframer = MessageDeframer(maxMessageSize: maxMessageSize)
    }

    /// Applies one stream event; after `.finished` or `.abort` every later event yields `.messages([])`.
    mutating func handle(_ event: HTTP2ClientStreamEvent) -> Step {
        guard !isFinished else { return .messages([]) }
        let step: Step
        switch event {
        case .headers(let block): step = responseHeaders(block)
        case .data(let bytes): step = messages(bytes)
        case .trailers(let block):
            trailers = Self.metadata(block)
            step = deframer.isAtMessageBoundary ? .finished(Self.status(block)) : .finished(Self.truncated)
        case .closed(let closure): step = .finished(Self.error(for: closure))
        }
        if case .messages = step {} else { isFinished = true }
        return step
    }

    private static let truncated = RPCError(.internal, "the response ended inside a message")

    private mutating func responseHeaders(_ block: [(name: String, value: String)]) -> Step {
        let value = { (name: String) in block.first { $0.name == name }?.value }
        if value("grpc-status") != nil {
            trailers = Self.metadata(block)
            return .finished(Self.status(block))
        }
        guard value(":status") == "200" else { return .abort(Self.httpError(value(":status"))) }
        guard let contentType = value("content-type"), contentType.hasPrefix("application/grpc") else {
            return .abort(RPCError(.unknown, "the response content-type is not application/grpc"))
        }
        guard let encoding = MessageEncoding(rawValue: value("grpc-encoding") ?? "identity") else {
            return .abort(RPCError(.internal, "the response grpc-encoding is not supported"))
        }
        self.encoding = encoding
        headers = Self.metadata(block)
        return .messages([])
    }

    private mutating func messages(_ bytes: [UInt8]) -> Step {
        var framed: [FramedMessage] = []
        // withUnsafeBytes is untyped `rethrows`, so the typed error travels out in a Result.
        let consumed = bytes.withUnsafeBytes { chunk in
            Result { () throws(FramingError) in try deframer.consume(chunk) { framed.append($0) } }
        }
        switch consumed {
        case .success: break
        case .failure(.tooLarge(let size, let limit)):
            return .abort(
                RPCError(
                    .resourceExhausted, "response message of \(size) bytes exceeds the limit of \(limit)"))
        case .failure(.invalidFlag):
            return .abort(RPCError(.internal, "malformed response message prefix"))
        }
        var payloads: [[UInt8]] = []
        for message in framed {
            guard message.compressed else { payloads.append(message.bytes); continue }
            guard encoding != .identity else {
                return .abort(RPCError(.internal, "compressed message without grpc-encoding"))
            }
            do {
                payloads.append(try MessageEncoding.gunzip(message.bytes, limit: deframer.maxMessageSize))
            } catch .tooLarge(let limit) {
                return .abort(
                    RPCError(.resourceExhausted, "inflated response message exceeds the limit of \(limit)"))
            } catch {
                return .abort(RPCError(.internal, "corrupt compressed response message"))
            }
        }
        return .messages(payloads)
    }
}

extension ClientResponseReader {
    /// The status a trailer block (or a trailers-only header block) carries; nil for OK.
    static func status(_ block: [(name: String, value: String)]) -> RPCError? {
        let value = { (name: String) in block.first { $0.name == name }?.value }
        guard let raw = value("grpc-status"), let number = Int(raw) else {
            return RPCError(.internal, "the response ended without a grpc-status")
        }
        let code = StatusCode(rawValue: number) ?? .unknown
        if code == .ok { return nil }
        let message = value("grpc-message").map(PercentEncoding.decode) ?? ""
        var details: [ErrorDetail] = []
        if var encoded = value("grpc-status-details-bin"), let bytes = encoded.withUTF8({ Base64.decode($0) })
        {
            details = StatusDetails.decode(bytes) ?? []
        }
        return RPCError(code, message, details: details, trailers: metadata(block))
    }

    /// The custom metadata of a header block, transport headers left out.
    static func metadata(_ block: [(name: String, value: String)]) -> Metadata {
        var metadata = Metadata()
        for (name, value) in block {
            var value = value
            if let entry = value.withUTF8({ Metadata.entry(name: name, value: $0) }) {
                metadata.append(entry)
            }
        }
        return metadata
    }

    /// gRPC's mapping of a non-200 HTTP status that carries no grpc-status.
    static func httpError(_ status: String?) -> RPCError {
        let code: StatusCode =
            switch status {
            case "400": .internal
            case "401": .unauthenticated
            case "403": .permissionDenied
            case "404": .unimplemented
            case "429", "502", "503", "504": .unavailable
            default: .unknown
            }
        return RPCError(code, "HTTP status \(status ?? "missing")")
    }

    /// The error for a stream that ended without trailers.
    static func error(for closure: HTTP2StreamClosure) -> RPCError {
        switch closure {
        case .finished: RPCError(.internal, "the response ended without a grpc-status")
        case .refused: RPCError(.unavailable, "the server did not process the call")
        case .connectionLost: RPCError(.unavailable, "the connection to the server was lost")
        case .notConnected: RPCError(.unavailable, "cannot connect to the server")
        case .reset(NGHTTP2_CANCEL.rawValue): RPCError(.cancelled, "the call was cancelled")
        case .reset(NGHTTP2_ENHANCE_YOUR_CALM.rawValue):
            RPCError(.resourceExhausted, "the server reset the stream (ENHANCE_YOUR_CALM)")
        case .reset(let code): RPCError(.internal, "the server reset the stream (HTTP/2 error \(code))")
        }
    }
}
