internal import CNGHTTP2
import Synchronization

/// One gRPC call on one HTTP/2 stream. Its state belongs to the connection's loop thread; the handler
/// task prefers that loop as its executor, so the handler-facing methods run there too.
final class ServerCall: @unchecked Sendable {
    let streamID: Int32
    let connection: Connection
    var head = RequestHead()
    var route: Route!
    var deadline: ContinuousClock.Instant?
    var requestEncoding = MessageEncoding.identity
    /// Whether a request message so far arrived compressed (the interop suite's client_compressed cases).
    var receivedCompressedMessage = false
    let requestNumber: UInt64
    let startedAt = monotonicNanos()
    let options = Mutex(ResponseOptions())

    var deframer = MessageDeframer(maxMessageSize: 0)
    /// The request of a unary or server-streaming call (no queue needed for exactly one message).
    var singleRequest: [UInt8]?
    var inbound: [[UInt8]] = []
    var inboundHead = 0
    var inboundClosed = false
    var unconsumedBytes = 0
    var receiver: UnsafeContinuation<[UInt8]?, any Error>?

    var lifecycle = CallLifecycle()
    var outbound: [UInt8] = []
    var outboundOffset = 0
    var responseEncoding = MessageEncoding.identity
    var dataDeferred = false
    var trailersReady = false
    var trailers: HeaderBlock?
    var writer: UnsafeContinuation<Void, any Error>?

    /// What the server made of the call's access token (see `ServerCall+Authentication.swift`).
    var authentication = CallAuthentication.missing
    /// The token names a key not loaded yet: the handler's task fetches keys before the handler runs.
    var awaitsKeyRefresh = false

    var task: Task<Void, Never>?
    var deadlineTimer: LoopTimer?
    var streamClosed = false

    init(streamID: Int32, connection: Connection, requestNumber: UInt64) {
        self.streamID = streamID
        self.connection = connection
        self.requestNumber = requestNumber
    }

    var loop: EventLoop { connection.loop }
    var core: ServerCore { connection.core }
    var queuedMessages: Int { inbound.count - inboundHead }

    var requestID: String {
        head.metadata["x-request-id"] ?? "\(core.requestIDPrefix)-\(loop.index)-\(requestNumber)"
    }

    /// The request HEADERS are complete: route the call, or refuse it.
    func headersReceived(endStream: Bool) {
        switch head.validate(limit: core.configuration.maxHeaderListSize) {
        case .failure(.http(let status)):
            lifecycle.abandon()
            connection.submitResponse(
                streamID: streamID, HeaderBlock([(":status", String(status))]), data: nil)
        case .failure(.status(let code, let message)):
            finish(RPCError(code, message))
        case .success(let encoding):
            requestEncoding = encoding
            guard let path = head.path, let route = core.routes[path] else {
                return finish(RPCError(.unimplemented, "Method not found: \(head.path ?? "")"))
            }
            self.route = route
            if let refusal = authenticateFromHeaders() { return finish(refusal) }
            deframer.maxMessageSize = route.maxRequestSize ?? core.configuration.maxReceiveMessageSize
            if let timeout = head.timeout { startDeadline(timeout) }
            if route.streamingRequest { startHandler() }
            if endStream { inboundEnded() }
        }
    }

    private func startDeadline(_ timeout: Duration) {
        deadline = ContinuousClock.now.advanced(by: timeout)
        deadlineTimer = loop.schedule(after: timeout) { [unowned self] in
            deadlineTimer = nil
            finish(RPCError(.deadlineExceeded, "Deadline exceeded"))
        }
    }

    /// A DATA chunk arrived for this stream.
    func receiveData(_ chunk: UnsafeRawBufferPointer) {
        guard !lifecycle.isFinished, route != nil else { return connection.consume(streamID, chunk.count) }
        var failure: RPCError?
        let limit = deframer.maxMessageSize
        do {
            try deframer.consume(chunk) { message in
                if failure == nil { failure = accept(message, limit: limit) }
            }
        } catch .tooLarge(let size, let limit) {
            failure = RPCError(
                .resourceExhausted, "Request message of \(size) bytes exceeds the limit of \(limit)")
        } catch {
            failure = RPCError(.internal, "Malformed message length prefix")
        }
        if !route.streamingRequest || queuedMessages == 0 {
            connection.consume(streamID, chunk.count)
        } else {
            unconsumedBytes += chunk.count
        }
        if let failure { finish(failure) }
    }

    /// Turns one framed message into request bytes, or the status that ends the call.
    private func accept(_ message: FramedMessage, limit: Int) -> RPCError? {
        var bytes = message.bytes
        if message.compressed {
            guard requestEncoding == .gzip else {
                return RPCError(.internal, "Compressed message received without grpc-encoding")
            }
            receivedCompressedMessage = true
            do {
                bytes = try MessageEncoding.gunzip(bytes, limit: limit)
            } catch .tooLarge(let limit) {
                return RPCError(
                    .resourceExhausted, "Decompressed request message exceeds the limit of \(limit)")
            } catch {
                return RPCError(.internal, "Corrupt gzip request message")
            }
        }
        if !route.streamingRequest {
            guard singleRequest == nil else {
                return RPCError(.internal, "More than one request message for a unary request")
            }
            singleRequest = bytes
        } else if let receiver {
            self.receiver = nil
            receiver.resume(returning: bytes)
        } else {
            inbound.append(bytes)
        }
        return nil
    }

    /// The client half-closed the stream.
    func inboundEnded() {
        inboundClosed = true
        guard !lifecycle.isFinished, route != nil else { return }
        guard deframer.isAtMessageBoundary else {
            return finish(RPCError(.internal, "Request ended inside a message"))
        }
        if route.streamingRequest {
            if let receiver {
                self.receiver = nil
                receiver.resume(returning: nil)
            }
        } else if singleRequest != nil {
            startHandler()
        } else {
            finish(RPCError(.internal, "Unary request without a message"))
        }
    }

    /// nghttp2 closed the stream: after our trailers, or because the client reset it or left.
    func streamDidClose() {
        if !lifecycle.isFinished { logAccess(.cancelled, cause: RPCError.Fault("the client left")) }
        streamClosed = true
        lifecycle.abandon()
        endHandler()
    }
}
