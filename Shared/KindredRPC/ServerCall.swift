internal import CNGHTTP2
import KindredMetrics
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
    var unconsumedBytes = 0
    var receiver: UnsafeContinuation<[UInt8]?, any Error>?

    /// Where the call is in the protocol: every decision about it is made there.
    var state = ServerCallState()
    var outbound: [UInt8] = []
    var outboundOffset = 0
    var responseEncoding = MessageEncoding.identity
    var writer: UnsafeContinuation<Void, any Error>?

    /// What the server made of the call's access token (see `ServerCall+Authentication.swift`).
    var authentication = CallAuthentication.missing

    var task: Task<Void, Never>?
    /// When the call took its place under the loop's admission limit (monotonic nanoseconds); 0 when it holds none.
    var admittedAt: UInt64 = 0
    var deadlineTimer: LoopTimer?

    init(streamID: Int32, connection: Connection, requestNumber: UInt64) {
        self.streamID = streamID
        self.connection = connection
        self.requestNumber = requestNumber
    }

    var loop: EventLoop { connection.loop }
    var core: ServerCore { connection.core }
    var queuedMessages: Int { inbound.count - inboundHead }

    /// The route's metrics, or those of calls to no route.
    var metrics: MethodMetrics { route?.metrics ?? core.unroutedMetrics }

    /// This hop of the caller's trace (a new span of its `traceparent`), or a new trace when the caller sent
    /// none or a malformed one. Read on the loop only.
    lazy var trace: TraceContext = .continuing(head.metadata["traceparent"])

    var requestID: String {
        head.metadata["x-request-id"] ?? "\(core.requestIDPrefix)-\(loop.index)-\(requestNumber)"
    }

    /// The request HEADERS are complete: route the call, or refuse it.
    func headersReceived(endStream: Bool) {
        connection.loop.assertInLoop()
        perform(state.headersReceived(verdict(), endStream: endStream))
    }

    private func verdict() -> ServerCallState.HeadersVerdict {
        switch head.validate(limit: core.configuration.maxHeaderListSize) {
        case .failure(.http(let status)):
            return .httpRefusal(status: status)
        case .failure(.status(let code, let message)):
            return .refusal(RPCError(code, message))
        case .success(let encoding):
            requestEncoding = encoding
            guard let path = head.path, let route = core.routes[path] else {
                return .refusal(RPCError(.unimplemented, "Method not found: \(head.path ?? "")"))
            }
            self.route = route
            deframer.maxMessageSize = route.maxRequestSize ?? core.configuration.maxReceiveMessageSize
            return authenticateFromHeaders()
        }
    }

    func startDeadline() {
        guard let timeout = head.timeout else { return }
        deadline = ContinuousClock.now.advanced(by: timeout)
        deadlineTimer = loop.schedule(after: timeout) { [unowned self] in
            deadlineTimer = nil
            perform(state.deadlineExpired())
        }
    }

    /// A DATA chunk arrived for this stream.
    func receiveData(_ chunk: UnsafeRawBufferPointer) {
        connection.loop.assertInLoop()
        guard state.acceptsRequestData else { return connection.consume(streamID, chunk.count) }
        var ending = ServerCallState.Action.none
        let limit = deframer.maxMessageSize
        do {
            try deframer.consume(chunk) { message in
                guard state.acceptsRequestData else { return }
                switch accept(message, limit: limit) {
                case .success(let bytes): ending = deliver(bytes)
                case .failure(let error): ending = state.requestRejected(error)
                }
            }
        } catch .tooLarge(let size, let limit) {
            // A message before the bad prefix may have ended the call already: that answer stands.
            if ending == .none {
                ending = state.requestRejected(
                    RPCError.malformedRequest(
                        .resourceExhausted, "Request message of \(size) bytes exceeds the limit of \(limit)"))
            }
        } catch {
            if ending == .none {
                ending = state.requestRejected(
                    RPCError.malformedRequest(.internal, "Malformed message length prefix"))
            }
        }
        if !route.streamingRequest || queuedMessages == 0 {
            connection.consume(streamID, chunk.count)
        } else {
            unconsumedBytes += chunk.count
        }
        perform(ending)
    }

    /// Turns one framed message into request bytes, or the status that ends the call.
    private func accept(_ message: FramedMessage, limit: Int) -> Result<[UInt8], RPCError> {
        guard message.compressed else { return .success(message.bytes) }
        guard requestEncoding == .gzip else {
            return .failure(
                RPCError.malformedRequest(.internal, "Compressed message received without grpc-encoding"))
        }
        receivedCompressedMessage = true
        do {
            return .success(try MessageEncoding.gunzip(message.bytes, limit: limit))
        } catch .tooLarge(let limit) {
            return .failure(
                RPCError.malformedRequest(
                    .resourceExhausted, "Decompressed request message exceeds the limit of \(limit)"))
        } catch {
            return .failure(RPCError.malformedRequest(.internal, "Corrupt gzip request message"))
        }
    }

    /// Keeps the one request message, or hands a streaming one to the handler (or its queue).
    private func deliver(_ bytes: [UInt8]) -> ServerCallState.Action {
        switch state.messageReceived() {
        case .drop:
            break
        case .keep:
            singleRequest = bytes
        case .deliver:
            if let receiver {
                self.receiver = nil
                receiver.resume(returning: bytes)
            } else {
                inbound.append(bytes)
            }
        case .fail(let ending):
            return ending
        }
        return .none
    }

    /// The client half-closed the stream.
    func inboundEnded() {
        perform(state.requestEnded(atMessageBoundary: deframer.isAtMessageBoundary))
    }

    /// The server's drain timeout passed with this server stream open.
    func drainTimedOut() {
        perform(state.drainTimedOut())
    }

    /// nghttp2 closed the stream: after our trailers, or because the client reset it or left.
    func streamDidClose() {
        connection.loop.assertInLoop()
        perform(state.streamClosed())
    }
}
