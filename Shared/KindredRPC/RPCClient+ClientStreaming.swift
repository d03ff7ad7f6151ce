public import KindredMessages

extension RPCClient {
    /// Calls a client-streaming method: `requests` writes the request messages as it produces them,
    /// the request side half-closes when it returns, and the server's one response is returned.
    /// Throws `RPCError`: the server's status (also when it refuses mid-stream: `write` throws it too),
    /// DEADLINE_EXCEEDED, CANCELLED (the task was cancelled, or `requests` threw something other than
    /// an `RPCError`, which becomes the cause), UNAVAILABLE (`CLIENT_THROTTLED` when the client's throttle refused
    /// it, before `requests` runs). Never retried: the messages are gone.
    public func clientStreaming<Request: ProtoMessage, Response: ProtoMessage>(
        method: MethodDescriptor, options: CallOptions = CallOptions(),
        responseType: Response.Type = Response.self,
        requests: (ClientRequestWriter<Request>) async throws -> Void
    ) async throws(RPCError) -> Response {
        try await clientStreamingResponse(
            method: method, options: options, responseType: responseType, requests: requests
        ).message
    }

    /// Like `clientStreaming`, but also returns the metadata the server sent in its headers and trailers.
    public func clientStreamingResponse<Request: ProtoMessage, Response: ProtoMessage>(
        method: MethodDescriptor, options: CallOptions = CallOptions(),
        responseType: Response.Type = Response.self,
        requests: (ClientRequestWriter<Request>) async throws -> Void
    ) async throws(RPCError) -> ClientResponse<Response> {
        let deadline = options.effectiveDeadline(defaultTimeout: configuration.defaultTimeout)
        let headers = requestHeaders(method: method, options: options)
        return try await throttled(method: method) { () async throws(RPCError) -> ClientResponse<Response> in
            try await attempt(headers: headers, body: [], streamsRequests: true, deadline: deadline) {
                call throws(RPCError) in
                let writer = ClientRequestWriter<Request>(
                    call: call, client: self, compress: options.compressRequest)
                try await Self.produce(requests, into: writer)
                call.finishRequests()
                return try await Self.singleResponse(of: call)
            }
        }
    }

    /// Runs the caller's producer; if it fails, the call's own error wins, else its error ends the call.
    private static func produce<Request>(
        _ requests: (ClientRequestWriter<Request>) async throws -> Void,
        into writer: ClientRequestWriter<Request>
    ) async throws(RPCError) {
        do {
            try await requests(writer)
        } catch {
            if case .failure(let ended) = writer.call.outcome { throw ended }
            let failure =
                error as? RPCError
                ?? RPCError(.cancelled, "The client stopped before sending every request.", cause: error)
            writer.call.cancel(with: failure)
            throw failure
        }
    }
}

/// Writes the request messages of a client-streaming call; `write` suspends while the server's
/// flow-control window is closed and 64 KiB are already queued, so a producer can never run ahead of
/// the network by more than that (and one message). Writes must not overlap.
public struct ClientRequestWriter<Request: ProtoMessage>: @unchecked Sendable {
    // @unchecked: `call` is touched only on its loop; `write` hops there before touching it.
    let call: ClientCall
    let client: RPCClient
    let compress: Bool

    /// Sends one request message; throws `RPCError` once the call failed (the server's status, the
    /// deadline, cancellation). After the server answered OK early, further messages are dropped.
    public func write(_ message: Request) async throws(RPCError) {
        let framed = try client.encode(message, compress: compress)
        let call = call
        try await RPCClient.preferring(call.loop) { () async throws(RPCError) in
            try await call.send(framed)
        }
    }
}
