public import KindredMessages
import KindredMetrics

extension RPCClient {
    /// Calls a unary method and returns its response; throws `RPCError` with the server's status,
    /// message and details (or UNAVAILABLE, DEADLINE_EXCEEDED, CANCELLED from this side).
    public func unary<Request: ProtoMessage, Response: ProtoMessage>(
        method: MethodDescriptor, request: Request, options: CallOptions = CallOptions(),
        responseType: Response.Type = Response.self
    ) async throws(RPCError) -> Response {
        try await unaryResponse(
            method: method, request: request, options: options, responseType: responseType
        ).message
    }

    /// Like `unary`, but also returns the metadata the server sent in its headers and trailers.
    public func unaryResponse<Request: ProtoMessage, Response: ProtoMessage>(
        method: MethodDescriptor, request: Request, options: CallOptions = CallOptions(),
        responseType: Response.Type = Response.self
    ) async throws(RPCError) -> ClientResponse<Response> {
        let deadline = options.effectiveDeadline(defaultTimeout: configuration.defaultTimeout)
        let headers = requestHeaders(method: method, options: options)
        let body = try encode(request, compress: options.compressRequest)
        return try await throttled(method: method) { () async throws(RPCError) -> ClientResponse<Response> in
            try await exchange(headers: headers, body: body, deadline: deadline, options: options)
        }
    }

    /// The call's attempts, until one answers, the retries run out or the deadline passes.
    private func exchange<Response: ProtoMessage>(
        headers: [(name: String, value: String)], body: [UInt8], deadline: ContinuousClock.Instant,
        options: CallOptions
    ) async throws(RPCError) -> ClientResponse<Response> {
        try await retrying(options: options, deadline: deadline) {
            () async throws(RPCError) -> ClientResponse<Response> in
            try await attempt(headers: headers, body: body, deadline: deadline) { call throws(RPCError) in
                try await Self.singleResponse(of: call)
            }
        }
    }

    /// Reads the one response message of a unary or client-streaming call, and its metadata.
    static func singleResponse<Response: ProtoMessage>(of call: ClientCall) async throws(RPCError)
        -> ClientResponse<Response>
    {
        guard let message = try await call.next() else {
            throw RPCError(.internal, "the server sent no response message")
        }
        guard try await call.next() == nil else {
            throw RPCError(.internal, "the server sent more than one response message")
        }
        return ClientResponse(
            message: try decode(message), headers: call.responseHeaders, trailers: call.responseTrailers)
    }

    /// Runs `body` again after a backoff while it fails with UNAVAILABLE, if the call is idempotent,
    /// within `maxAttempts` and never past the deadline. A server's SERVER_OVERLOADED refusal is not retried:
    /// it is that server's pushback, for whoever started the work to back off as its RetryInfo asks
    /// (`PeerCall` passes it up). A service retrying a busy peer inside a call it admitted held its own slot
    /// for seconds and sent the peer more work: under twice the load the stack serves, social's SendMessage to a
    /// restricted minor reached a p99 of 1.6 s, mostly backoffs between refused asks to family.
    func retrying<Value>(
        options: CallOptions, deadline: ContinuousClock.Instant, _ body: () async throws(RPCError) -> Value
    ) async throws(RPCError) -> Value {
        var attempt = 0
        while true {
            do {
                return try await body()
            } catch
                where error.code == .unavailable && error.overloadRetryDelay == nil && options.idempotent
                && attempt + 1 < configuration.maxAttempts
            {
                let delay = configuration.backoff(after: attempt)
                guard ContinuousClock.now + delay < deadline else { throw error }
                do { try await Task.sleep(for: delay) } catch {
                    throw RPCError(.cancelled, "the caller cancelled the call")
                }
                attempt += 1
            }
        }
    }

    /// The request HEADERS of a call, without `grpc-timeout` (added per attempt).
    func requestHeaders(method: MethodDescriptor, options: CallOptions) -> [(name: String, value: String)] {
        var headers: [(name: String, value: String)] = []
        // :path, grpc-encoding and traceparent at most, besides the fixed ones and the caller's metadata.
        headers.reserveCapacity(fixedHeaders.count + 3 + options.metadata.count)
        headers.append(contentsOf: fixedHeaders[..<2])
        headers.append((":path", method.path))
        headers.append(contentsOf: fixedHeaders[2...])
        if options.compressRequest { headers.append(("grpc-encoding", MessageEncoding.gzip.rawValue)) }
        options.metadata.appendHeaderFields(to: &headers)
        // A call made while serving one (or handling an event batch) continues that trace.
        if let trace = TraceContext.current, options.metadata["traceparent"] == nil {
            headers.append(("traceparent", trace.traceparent))
        }
        return headers
    }

    /// The request message, length-prefixed and optionally gzip-compressed.
    func encode<Message: ProtoMessage>(_ message: Message, compress: Bool) throws(RPCError) -> [UInt8] {
        let payload: [UInt8]
        do { payload = try message.serializedBytes() } catch {
            throw RPCError(.internal, "cannot encode \(Message.protoMessageName): \(error)")
        }
        var body: [UInt8] = []
        body.reserveCapacity(payload.count + 5)
        MessageDeframer.frame(
            compress ? MessageEncoding.gzip(payload) : payload, compressed: compress, into: &body)
        return body
    }

    /// Decodes a response message; a malformed one is INTERNAL.
    static func decode<Message: ProtoMessage>(_ bytes: [UInt8]) throws(RPCError) -> Message {
        do { return try Message(serializedBytes: bytes, maxSize: .max) } catch {
            throw RPCError(.internal, "malformed \(Message.protoMessageName) response: \(error)")
        }
    }
}

/// A unary response with the metadata the server sent around it.
public struct ClientResponse<Message: ProtoMessage>: Sendable {
    /// The response message.
    public var message: Message
    /// Custom metadata from the response headers.
    public var headers: Metadata
    /// Custom metadata from the trailers.
    public var trailers: Metadata
}
