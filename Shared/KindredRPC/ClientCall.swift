internal import DequeModule

/// One attempt of a client call on one connection, confined to that connection's loop: it opens the
/// stream, feeds it the request (`ClientCall+Requests.swift` for a streamed one), buffers response
/// messages until the caller takes them, and records how the call ended.
final class ClientCall {
    /// The request headers, shared by the call's attempts, and this attempt's `grpc-timeout`.
    private let headers: [(name: String, value: String)]
    private let timeout: String
    /// The request bytes; open (not complete) while a client-streaming caller is still writing.
    let requestBody: HTTP2RequestBody
    private var reader: ClientResponseReader
    /// The loop the call lives on.
    let loop: EventLoop
    /// Strong: the connection's stream table holds the call only until its stream closes.
    private(set) var connection: ClientConnection?
    private(set) var streamID: Int32?
    private var messages = Deque<[UInt8]>()
    /// Response bytes received but not yet acknowledged to the server's flow control.
    private var unconsumed = 0
    /// The call's one task, suspended until a response, the call's end or (streaming requests) window.
    var waiter: UnsafeContinuation<Void, Never>?
    var deadlineTimer: LoopTimer?
    /// Whether the server refused the stream before processing it (safe to send again).
    private(set) var wasRefused = false
    /// How the call ended: nil while it runs, `.success` for OK.
    private(set) var outcome: Result<Void, RPCError>?

    init(
        headers: [(name: String, value: String)], timeout: String, body: HTTP2RequestBody,
        maxResponseSize: Int, loop: EventLoop
    ) {
        self.loop = loop
        self.headers = headers
        self.timeout = timeout
        requestBody = body
        reader = ClientResponseReader(maxMessageSize: maxResponseSize)
        // Only a body still being written has a writer to wake; a weak reference costs the call a side table.
        if !body.isComplete { body.onTaken = { [weak self] in self?.requestBytesTaken() } }
    }

    /// The response header metadata (empty until the headers arrive).
    var responseHeaders: Metadata { reader.headers }
    /// The trailing metadata (empty until the call ends).
    var responseTrailers: Metadata { reader.trailers }

    /// Binds the call to the connection that will carry it (it may still be connecting).
    func attach(to connection: ClientConnection) {
        self.connection = connection
    }

    /// Submits the stream on a ready connection.
    func open(on connection: ClientConnection) {
        self.connection = connection
        guard outcome == nil else { return }
        do {
            // The stream holds the call until it closes, even if the caller has let go of it.
            let block = HeaderBlock(headers, last: ("grpc-timeout", timeout))
            streamID = try connection.session.startStream(headers: block, body: requestBody) { event in
                self.handle(event)
            }
        } catch {
            handle(.closed(.refused))
        }
    }

    /// Applies one stream event.
    func handle(_ event: HTTP2ClientStreamEvent) {
        if case .data(let bytes) = event { unconsumed += bytes.count }
        if case .closed(let closure) = event {
            streamID = nil
            wasRefused = closure == .refused || closure == .notConnected
        }
        switch reader.handle(event) {
        case .messages(let payloads):
            guard !payloads.isEmpty else {
                // Part of a message the caller waits for: its rest cannot come until this is acknowledged (a
                // 1 MiB photo chunk after a small message overran the 1 MiB window and the call hung until
                // its deadline, hiding the status the server had queued after it).
                if waiter != nil { releaseWindow() }
                return
            }
            messages.append(contentsOf: payloads)
            wake()
        case .finished(let error):
            finish(error)
        case .abort(let error):
            cancel(with: error)
        }
    }

    /// Ends the call with `error` (a deadline, a cancellation, a bad response), resetting its stream.
    func cancel(with error: RPCError) {
        guard outcome == nil else { return }
        requestBody.complete()  // the reset below ends the request side too
        if let connection {
            if let streamID { connection.session.cancelStream(streamID) } else { connection.withdraw(self) }
            loop.markDirty(connection)
        }
        finish(error)
    }

    private func finish(_ error: RPCError?) {
        guard outcome == nil else { return }
        abandonRequests()
        outcome = error.map { .failure($0) } ?? .success(())
        if let deadlineTimer { loop.cancel(deadlineTimer) }
        deadlineTimer = nil
        wake()
    }

    func wake() {
        guard let waiter else { return }
        self.waiter = nil
        waiter.resume()
    }

    /// The next response message; nil once the call ended with OK. Must run on the call's loop.
    func next() async throws(RPCError) -> [UInt8]? {
        while true {
            if let message = messages.popFirst() { return message }
            // Acknowledged only once the buffer is drained: what waits unread stays within one window.
            releaseWindow()
            if let outcome {
                try outcome.get()
                return nil
            }
            await withUnsafeContinuation { waiter = $0 }
        }
    }

    /// Waits until a response message arrived or the call ended; throws if it ended with an error.
    /// What ends the wait is left buffered for `next()`.
    func waitForResponseStart() async throws(RPCError) {
        while messages.isEmpty && outcome == nil {
            releaseWindow()
            await withUnsafeContinuation { waiter = $0 }
        }
        if messages.isEmpty, case .failure(let error) = outcome { throw error }
    }

    /// Tells the server's flow control the caller took what arrived so far.
    private func releaseWindow() {
        guard unconsumed > 0, let connection else { return }
        connection.session.consume(streamID: streamID ?? 0, count: unconsumed)
        unconsumed = 0
        loop.markDirty(connection)
    }
}
