/// The events of one call, each answering the one action `ServerCall` carries out.
extension ServerCallState {
    mutating func headersReceived(_ verdict: HeadersVerdict, endStream: Bool) -> Action {
        guard case .receivingHeaders = state else { return .none }
        switch verdict {
        case .httpRefusal(let status):
            state = .refusedHTTP
            return .respondHTTP(status: status)
        case .refusal(let error):
            return finish(.failed(error))
        case .accepted(let streaming, let refresh):
            if endStream && !streaming { return finish(.failed(RPCError.unaryWithoutMessage)) }
            let request = endStream ? .ended : streaming ? .streaming : Request.single(received: false)
            state = .open(request: request, response: .notStarted, refreshingKeys: refresh)
            return .admit(startHandler: streaming, refreshKeys: refresh)
        }
    }

    /// One complete request message arrived.
    mutating func messageReceived() -> MessageAction {
        guard case .open(let request, let response, let refresh) = state else { return .drop }
        switch request {
        case .single(received: false):
            state = .open(request: .single(received: true), response: response, refreshingKeys: refresh)
            return .keep
        case .single(received: true):
            return .fail(
                finish(
                    .failed(
                        RPCError.malformedRequest(
                            .internal, "More than one request message for a unary request"))))
        case .streaming:
            return .deliver
        case .ended:
            return .drop  // nghttp2 refuses DATA after END_STREAM
        }
    }

    /// The client half-closed the stream.
    mutating func requestEnded(atMessageBoundary: Bool) -> Action {
        guard case .open(let request, let response, let refresh) = state else { return .none }
        guard atMessageBoundary else {
            return finish(.failed(RPCError.malformedRequest(.internal, "Request ended inside a message")))
        }
        switch request {
        case .single(received: false):
            return finish(.failed(RPCError.unaryWithoutMessage))
        case .single(received: true):
            state = .open(request: .ended, response: response, refreshingKeys: refresh)
            return .startHandler(refreshKeys: refresh)
        case .streaming:
            state = .open(request: .ended, response: response, refreshingKeys: refresh)
            return .endRequests
        case .ended:
            return .none
        }
    }

    /// The call may not start (its loop is at its admission limit, or its deadline already passed).
    mutating func shed(_ error: RPCError) -> Action {
        finish(.failed(error))
    }

    /// The transport found the request broken (a bad length prefix, a message over the limit, bad gzip).
    mutating func requestRejected(_ error: RPCError) -> Action {
        finish(.failed(error))
    }

    func requestWanted() -> ReadAction {
        switch state {
        case .open(.ended, _, _): .endOfRequests
        case .open: .suspend
        default: .cancelled
        }
    }

    mutating func messageWillBeSent() -> WriteAction {
        guard case .open(let request, let response, let refresh) = state else { return .cancelled }
        state = .open(request: request, response: .streaming(dataDeferred: false), refreshingKeys: refresh)
        switch response {
        case .notStarted, .announced: return .submitHeadersThenQueue
        case .streaming(let deferred): return .queue(resumeData: deferred)
        }
    }

    /// A server stream's handler starts; true when the call must join the connection's announced list.
    mutating func responseAnnounced() -> Bool {
        guard case .open(let request, .notStarted, let refresh) = state else { return false }
        state = .open(request: request, response: .announced, refreshingKeys: refresh)
        return true
    }

    /// The connection flushes: true when the announced HEADERS must be submitted now (no message or status
    /// went first).
    mutating func announcedHeadersDue() -> Bool {
        guard case .open(let request, .announced, let refresh) = state else { return false }
        state = .open(request: request, response: .streaming(dataDeferred: false), refreshingKeys: refresh)
        return true
    }

    /// The handler's task loaded fresh keys and judged the token again (`refusal` nil: it may run).
    mutating func keysRefreshed(refusal: RPCError?) -> KeysAction {
        guard case .open(let request, let response, true) = state else { return .callEnded }
        state = .open(request: request, response: response, refreshingKeys: false)
        return refusal.map(KeysAction.refuse) ?? .runHandler
    }

    mutating func handlerReturned(_ outcome: Outcome) -> Action {
        finish(outcome)
    }

    mutating func deadlineExpired() -> Action {
        finish(.failed(RPCError(.deadlineExceeded, "Deadline exceeded")))
    }

    /// The drain timeout passed with this server stream still open: it ends UNAVAILABLE before the close.
    mutating func drainTimedOut() -> Action {
        finish(.failed(.serverShuttingDown))
    }

    /// nghttp2's data source sent every queued byte, `copied` of them in this call.
    mutating func outboundDrained(copied: Int) -> DataAction {
        switch state {
        case .finished(.queued(let outcome)):
            state = .finished(.sent)
            return .sendTrailers(outcome)
        case .open(let request, .streaming, let refresh) where copied == 0:
            state = .open(request: request, response: .streaming(dataDeferred: true), refreshingKeys: refresh)
            return .deferData
        default:
            return copied == 0 ? .deferData : .sent
        }
    }

    /// nghttp2 closed the stream: after the status, or because the client reset it or left.
    mutating func streamClosed() -> Action {
        defer { state = .closed }
        switch state {
        case .receivingHeaders, .open: return .cancelHandler(log: true)
        case .refusedHTTP, .finished, .closed: return .none
        }
    }

    /// Decides the status: a second one is dropped; an error cancels the handler.
    private mutating func finish(_ outcome: Outcome) -> Action {
        let cancel = outcome != .ok
        switch state {
        case .receivingHeaders, .open(_, .notStarted, _), .open(_, .announced, _):
            state = .finished(.sent)
            return .finishTrailersOnly(outcome, cancelHandler: cancel)
        case .open(_, .streaming(let deferred), _):
            state = .finished(.queued(outcome))
            return .finishAfterData(outcome, resumeData: deferred, cancelHandler: cancel)
        case .refusedHTTP, .finished, .closed:
            return .none
        }
    }
}

extension RPCError {
    fileprivate static let unaryWithoutMessage = RPCError.malformedRequest(
        .internal, "Unary request without a message")
}
