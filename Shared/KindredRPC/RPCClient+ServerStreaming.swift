public import KindredMessages

extension RPCClient {
    /// Calls a server-streaming method; the call starts when iteration starts. Ending iteration early,
    /// or cancelling the iterating task, resets the stream with CANCEL. The deadline covers the whole
    /// stream: give a long-lived stream (an event feed) a `timeout` to match.
    public func serverStreaming<Request: ProtoMessage, Response: ProtoMessage>(
        method: MethodDescriptor, request: Request, options: CallOptions = CallOptions(),
        responseType: Response.Type = Response.self
    ) -> ClientResponseStream<Response> {
        ClientResponseStream(client: self, method: method, options: options) { () throws(RPCError) in
            try self.encode(request, compress: options.compressRequest)
        }
    }
}

/// The responses of a server-streaming call, read in order; throws `RPCError` if the call fails.
public struct ClientResponseStream<Response: ProtoMessage>: AsyncSequence, Sendable {
    public typealias Element = Response
    public typealias Failure = RPCError

    let client: RPCClient
    let method: MethodDescriptor
    let options: CallOptions
    let encodeRequest: @Sendable () throws(RPCError) -> [UInt8]

    /// Starts reading; the call itself starts with the first `next()`.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(state: ClientResponseStreamState(stream: self))
    }

    /// Reads one response at a time; the stream's flow-control window opens as messages are taken.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let state: ClientResponseStreamState<Response>

        /// The next response; nil after the last one.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(RPCError) -> Response?
        {
            try await state.next()
        }

        /// The next response; nil after the last one.
        public mutating func next() async throws(RPCError) -> Response? {
            try await state.next()
        }
    }
}

/// The running call behind an iterator; cancels the call if the iterator is dropped before the end.
final class ClientResponseStreamState<Response: ProtoMessage>: @unchecked Sendable {
    // @unchecked: an iterator is used by one task at a time; `call` is touched only on `loop`.
    private let stream: ClientResponseStream<Response>
    private var call: ClientCall?
    private var loop: EventLoop?
    private var isDone = false

    init(stream: ClientResponseStream<Response>) {
        self.stream = stream
    }

    deinit {
        guard let call, let loop, !isDone else { return }
        let handle = LoopBound(call, loop: loop)
        loop.execute { handle.value.cancel(with: RPCError(.cancelled, "the response stream was abandoned")) }
    }

    func next() async throws(RPCError) -> Response? {
        guard !isDone else { return nil }
        do {
            if call == nil { try await start() }
            guard let call, let loop else { return nil }
            guard
                let bytes = try await RPCClient.consume(
                    call, on: loop, { call throws(RPCError) in try await call.next() })
            else {
                isDone = true
                return nil
            }
            return try RPCClient.decode(bytes)
        } catch {
            isDone = true
            // A long stream ending at its own deadline is how a watcher renews it, not a slow peer.
            stream.client.reportPeerFailure(error, method: stream.method, deadlineCounts: call == nil)
            throw error
        }
    }

    /// Opens the call; an idempotent one is retried while it fails UNAVAILABLE before any response.
    private func start() async throws(RPCError) {
        let client = stream.client, options = stream.options
        let deadline = options.effectiveDeadline(defaultTimeout: client.configuration.defaultTimeout)
        let headers = client.requestHeaders(method: stream.method, options: options)
        let body = try stream.encodeRequest()
        let call = try await client.retrying(options: options, deadline: deadline) {
            () async throws(RPCError) -> ClientCall in
            try await client.attempt(headers: headers, body: body, deadline: deadline) {
                call throws(RPCError) in
                try await call.waitForResponseStart()
                return call
            }
        }
        self.call = call
        self.loop = call.loop
    }
}
