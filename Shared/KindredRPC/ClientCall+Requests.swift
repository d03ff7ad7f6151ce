/// Request messages written while the call runs (client streaming): each is queued on the stream's
/// body and nghttp2 sends it as the server's flow-control window allows; the writer suspends while
/// more than `requestBufferLimit` bytes wait, so an upload never piles up in memory.
extension ClientCall {
    /// Request bytes that may wait for the server's window before `send` suspends (one message more
    /// may sit on top: a message is queued whole).
    static let requestBufferLimit = 64 * 1024

    /// Whether a writer is suspended because the server has not taken what was queued.
    var isAwaitingWindow: Bool { waiter != nil && requestBody.pendingCount > Self.requestBufferLimit }

    /// Queues one length-prefixed request message. Suspends while the queue is over the limit; throws
    /// the call's error once it failed; drops the message once the call ended OK (the server answered
    /// before reading everything); a write after the half-close is the caller's bug (INTERNAL). Must run
    /// on the call's loop, one writer at a time.
    func send(_ framed: [UInt8]) async throws(RPCError) {
        try throwIfEnded()
        guard outcome == nil else { return }
        guard !requestBody.isComplete else {
            throw RPCError(.internal, "A request was written after the request stream closed.")
        }
        requestBody.append(framed)
        resumeRequestBody()
        while requestBody.pendingCount > Self.requestBufferLimit && outcome == nil {
            await withUnsafeContinuation { waiter = $0 }
        }
        try throwIfEnded()
    }

    /// Half-closes the request side: END_STREAM follows the last queued byte.
    func finishRequests() {
        guard !requestBody.isComplete else { return }
        requestBody.complete()
        resumeRequestBody()
    }

    /// nghttp2 took request bytes: wake the writer once the queue is back within the limit.
    func requestBytesTaken() {
        if requestBody.pendingCount <= Self.requestBufferLimit { wake() }
    }

    /// The call ended while the caller could still write: reset the stream so that it does not stay
    /// half-open on both sides (the server has answered, it reads no more).
    func abandonRequests() {
        guard !requestBody.isComplete else { return }
        requestBody.complete()
        guard let connection, let streamID else { return }
        connection.session.cancelStream(streamID)
        loop.markDirty(connection)
    }

    private func throwIfEnded() throws(RPCError) {
        if case .failure(let error) = outcome { throw error }
    }

    private func resumeRequestBody() {
        guard let connection else { return }
        if let streamID { connection.session.resumeBody(streamID) }
        loop.markDirty(connection)
    }
}
