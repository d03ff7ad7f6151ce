internal import CNGHTTP2

/// The response side of a call: HEADERS, length-prefixed messages through nghttp2's data source, the status;
/// and carrying out what `ServerCallState` decides.
extension ServerCall {
    /// Carries out one action of the call's state machine.
    func perform(_ action: ServerCallState.Action) {
        connection.loop.assertInLoop()
        switch action {
        case .none:
            break
        case .respondHTTP(let status):
            // Not a gRPC call: no status, no access line.
            connection.submitResponse(
                streamID: streamID, HeaderBlock([(":status", String(status))]), data: nil)
        case .admit(let start, let refreshKeys):
            startDeadline()
            if start { startHandler(refreshKeys: refreshKeys) }
        case .startHandler(let refreshKeys):
            startHandler(refreshKeys: refreshKeys)
        case .endRequests:
            if let receiver {
                self.receiver = nil
                receiver.resume(returning: nil)
            }
        case .finishTrailersOnly(let outcome, let cancel):
            leaveAdmission()
            logAccess(outcome)
            connection.submitResponse(streamID: streamID, trailersOnly(outcome), data: nil)
            connection.markDirty()
            if cancel { endHandler() } else { cancelDeadline() }
        case .finishAfterData(let outcome, let resume, let cancel):
            leaveAdmission()
            logAccess(outcome)
            if resume { connection.resumeData(streamID) }
            connection.markDirty()
            if cancel { endHandler() } else { cancelDeadline() }
        case .cancelHandler(let log):
            leaveAdmission()
            if log { logAccess(.cancelled, cause: RPCError.Fault("the client left"), clientLeft: true) }
            endHandler()
        }
    }

    private func logAccess(_ outcome: ServerCallState.Outcome) {
        switch outcome {
        case .ok: logAccess(StatusCode.ok)
        case .failed(let error): logAccess(error.code, details: error.details, cause: error.cause)
        }
    }

    /// A trailers-only answer's one HEADERS frame; an admission refusal's was made once (`OverloadRefusal`).
    private func trailersOnly(_ outcome: ServerCallState.Outcome) -> HeaderBlock {
        let (headers, trailers) = options.withLock { ($0.headers, $0.trailers) }
        if let refusal = core.overloadRefusal.headers(
            for: outcome, responseHeaders: headers, trailers: trailers)
        {
            return refusal
        }
        return HeaderBlock(
            StatusTrailers.responseHeaders(encoding: .identity, metadata: headers) + statusFields(outcome))
    }

    /// `grpc-status` and what goes with it: the message, details, and the trailers the handler and the error set.
    private func statusFields(_ outcome: ServerCallState.Outcome) -> [(name: String, value: String)] {
        var metadata = options.withLock { $0.trailers }
        guard case .failed(let error) = outcome else {
            return StatusTrailers.fields(code: .ok, message: "", details: [], metadata: metadata)
        }
        for entry in error.trailers { metadata.append(entry) }
        return StatusTrailers.fields(
            code: error.code, message: error.message, details: error.details, metadata: metadata)
    }

    /// Queues one response message without waiting for room (a unary response).
    func sendFinal(_ bytes: [UInt8]) throws {
        switch state.messageWillBeSent() {
        case .cancelled: throw CancellationError()
        case .submitHeadersThenQueue: submitResponseHeaders()
        case .queue(let resume): if resume { connection.resumeData(streamID) }
        }
        if responseEncoding == .gzip {
            MessageDeframer.frame(MessageEncoding.gzip(bytes), compressed: true, into: &outbound)
        } else {
            MessageDeframer.frame(bytes, compressed: false, into: &outbound)
        }
        connection.markDirty()
    }

    /// A server stream's HEADERS go out at the end of the loop iteration in which its handler starts, before
    /// any message, so that the client sees its stream open; what the handler sets before it first suspends
    /// (response headers, compression) is in them.
    func announceResponse() {
        guard state.responseAnnounced() else { return }
        connection.announcedCalls.append(self)
        connection.markDirty()
    }

    /// Submits the announced HEADERS, unless a message or the status went out first.
    func submitAnnouncedHeaders() {
        if state.announcedHeadersDue() { submitResponseHeaders() }
    }

    private func submitResponseHeaders() {
        let (metadata, compress) = options.withLock { ($0.headers, $0.compress) }
        if compress && core.configuration.allowsResponseCompression && head.acceptsGzip {
            responseEncoding = .gzip
        }
        let provider = nghttp2_data_provider(
            source: nghttp2_data_source(ptr: Unmanaged.passUnretained(self).toOpaque()),
            read_callback: readResponseData)
        if metadata.isEmpty && responseEncoding == .identity {
            connection.submitResponse(
                streamID: streamID, StaticHeaders.shared.response,
                StaticHeaders.shared.responseCount, data: provider)
        } else {
            let fields = StatusTrailers.responseHeaders(encoding: responseEncoding, metadata: metadata)
            connection.submitResponse(streamID: streamID, HeaderBlock(fields), data: provider)
        }
    }

    /// nghttp2 asks for up to `length` bytes of DATA: hand over queued messages, then the trailers.
    func produce(into buffer: UnsafeMutablePointer<UInt8>, length: Int, flags: UnsafeMutablePointer<UInt32>)
        -> Int
    {
        let count = min(length, outbound.count - outboundOffset)
        if count > 0 {
            connection.dataFrameSent()
            outbound.withUnsafeBufferPointer { source in
                buffer.update(from: source.baseAddress! + outboundOffset, count: count)
            }
            outboundOffset += count
        }
        if outboundOffset == outbound.count {
            outbound.removeAll(keepingCapacity: outbound.capacity <= 64 << 10)
            outboundOffset = 0
            switch state.outboundDrained(copied: count) {
            case .sent:
                break
            case .sendTrailers(let outcome):
                flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue | NGHTTP2_DATA_FLAG_NO_END_STREAM.rawValue
                connection.submitTrailers(streamID: streamID, trailers(outcome))
            case .deferData:
                return Int(NGHTTP2_ERR_DEFERRED.rawValue)
            }
        }
        if let writer, outbound.count - outboundOffset <= core.configuration.responseBufferLimit {
            self.writer = nil
            writer.resume()
        }
        return count
    }

    /// The trailing HEADERS; nil for a plain OK (the connection's shared `grpc-status: 0`).
    private func trailers(_ outcome: ServerCallState.Outcome) -> HeaderBlock? {
        if outcome == .ok && options.withLock({ $0.trailers.isEmpty }) { return nil }
        return HeaderBlock(statusFields(outcome))
    }
}

/// nghttp2's data source callback: recovers the call from the source pointer (unretained: the
/// connection's table keeps the call alive until nghttp2 closes the stream).
private func readResponseData(
    _ session: OpaquePointer?, _ streamID: Int32, _ buffer: UnsafeMutablePointer<UInt8>?, _ length: Int,
    _ flags: UnsafeMutablePointer<UInt32>?, _ source: UnsafeMutablePointer<nghttp2_data_source>?,
    _ userData: UnsafeMutableRawPointer?
) -> Int {
    guard let buffer, let flags, let pointer = source?.pointee.ptr else {
        return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue)
    }
    let call = Unmanaged<ServerCall>.fromOpaque(pointer).takeUnretainedValue()
    return call.produce(into: buffer, length: length, flags: flags)
}
