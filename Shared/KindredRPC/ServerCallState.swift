/// The protocol logic of one server call, apart from nghttp2, the handler task and the buffers: events in
/// (`ServerCallState+Events.swift`), one action out for `ServerCall` to carry out. The call's whole state
/// is `state`; `ServerCall` keeps only resources: the byte queues, the continuations a suspended handler
/// waits on, the task and the deadline timer.
struct ServerCallState {
    enum State: Equatable {
        /// The request HEADERS are arriving.
        case receivingHeaders
        /// Answered with a bare HTTP status (not gRPC); waits for nghttp2 to close the stream.
        case refusedHTTP
        /// Admitted: the request and the response go their own ways; `refreshingKeys` while the handler's
        /// task fetches the keys the token names (the handler has not started).
        case open(request: Request, response: Response, refreshingKeys: Bool)
        /// The status is decided and the access line written.
        case finished(Trailers)
        /// nghttp2 closed the stream.
        case closed
    }

    enum Request: Equatable {
        /// Unary or server-streaming: whether the one message arrived; END_STREAM starts the handler.
        case single(received: Bool)
        /// Client- or bidi-streaming: the handler runs and reads messages as they come.
        case streaming
        /// END_STREAM arrived.
        case ended
    }

    enum Response: Equatable {
        case notStarted
        /// A server stream's handler started: its HEADERS go out at the connection's next flush.
        case announced
        /// HEADERS submitted; `dataDeferred` when nghttp2 was told there is nothing to send yet.
        case streaming(dataDeferred: Bool)
    }

    enum Trailers: Equatable {
        /// Waiting behind queued DATA; made when they go, from the outcome and the trailers the handler set.
        case queued(Outcome)
        /// Submitted (trailers-only HEADERS, or after the data).
        case sent
    }

    /// What the transport made of the request HEADERS.
    enum HeadersVerdict {
        case httpRefusal(status: Int)
        case refusal(RPCError)
        case accepted(streamingRequest: Bool, awaitsKeyRefresh: Bool)
    }

    enum Outcome: Equatable {
        case ok
        case failed(RPCError)
    }

    enum Action: Equatable {
        case none
        case respondHTTP(status: Int)
        /// Arm the deadline (if the request has one) and, when asked, start the handler's task.
        case admit(startHandler: Bool, refreshKeys: Bool)
        /// One HEADERS frame with the status; write the access line; cancel the deadline (and the handler).
        case finishTrailersOnly(Outcome, cancelHandler: Bool)
        /// The trailers wait behind the data (resume nghttp2's data source if deferred); log; cancel.
        case finishAfterData(Outcome, resumeData: Bool, cancelHandler: Bool)
        case startHandler(refreshKeys: Bool)
        /// Wake a reader waiting in `receive()` with nil.
        case endRequests
        /// Cancel the handler; wake a reader or writer with `CancellationError`; with `log`, the access line
        /// says CANCELLED ("the client left").
        case cancelHandler(log: Bool)
    }

    /// What becomes of one complete request message (deframed and inflated).
    enum MessageAction: Equatable {
        case drop
        /// The one message of a unary or server-streaming call.
        case keep
        /// Hand it to the streaming handler, or queue it.
        case deliver
        case fail(Action)
    }

    /// The handler asked for the next request message and none is queued.
    enum ReadAction: Equatable { case suspend, endOfRequests, cancelled }

    enum WriteAction: Equatable { case submitHeadersThenQueue, queue(resumeData: Bool), cancelled }

    enum KeysAction: Equatable { case runHandler, refuse(RPCError), callEnded }

    /// nghttp2's data source sent everything queued.
    enum DataAction: Equatable { case sent, sendTrailers(Outcome), deferData }

    var state = State.receivingHeaders

    /// Whether DATA for this stream is deframed (otherwise its bytes are only returned to the window).
    var acceptsRequestData: Bool {
        if case .open = state { true } else { false }
    }
}
