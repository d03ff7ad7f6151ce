internal import CNGHTTP2

/// The response side of a call: HEADERS, length-prefixed messages through nghttp2's data source, trailers.
extension ServerCall {
    func appendMessage(_ bytes: [UInt8]) {
        if lifecycle.willSendMessage() { submitResponseHeaders() }
        if responseEncoding == .gzip {
            MessageDeframer.frame(MessageEncoding.gzip(bytes), compressed: true, into: &outbound)
        } else {
            MessageDeframer.frame(bytes, compressed: false, into: &outbound)
        }
        resumeData()
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

    private func resumeData() {
        if dataDeferred {
            dataDeferred = false
            connection.resumeData(streamID)
        }
        connection.markDirty()
    }

    /// Ends the call with an error status (merging its trailers), and stops the handler.
    func finish(_ error: RPCError) {
        finish(
            code: error.code, message: error.message, details: error.details, trailers: error.trailers,
            cause: error.cause)
        endHandler()
    }

    /// Ends the call with a status; a second status for the same call is dropped.
    func finish(
        code: StatusCode, message: String, details: [ErrorDetail], trailers extra: Metadata,
        cause: (any Error)? = nil
    ) {
        guard !connection.closed, let ending = lifecycle.finish() else { return }
        logAccess(code, details: details, cause: cause)
        let (headers, trailing) = options.withLock { ($0.headers, $0.trailers) }
        var metadata = trailing
        for entry in extra { metadata.append(entry) }
        let statusFields = StatusTrailers.fields(
            code: code, message: message, details: details, metadata: metadata)
        switch ending {
        case .trailersOnly:
            let fields = StatusTrailers.responseHeaders(encoding: .identity, metadata: headers) + statusFields
            connection.submitResponse(streamID: streamID, HeaderBlock(fields), data: nil)
            connection.markDirty()
        case .trailers:
            if code != .ok || !metadata.isEmpty || !message.isEmpty { trailers = HeaderBlock(statusFields) }
            trailersReady = true
            resumeData()
        }
        if let timer = deadlineTimer {
            loop.cancel(timer)
            deadlineTimer = nil
        }
    }

    /// nghttp2 asks for up to `length` bytes of DATA: hand over queued messages, then the trailers.
    func produce(into buffer: UnsafeMutablePointer<UInt8>, length: Int, flags: UnsafeMutablePointer<UInt32>)
        -> Int
    {
        let count = min(length, outbound.count - outboundOffset)
        if count > 0 {
            outbound.withUnsafeBufferPointer { source in
                buffer.update(from: source.baseAddress! + outboundOffset, count: count)
            }
            outboundOffset += count
        }
        if outboundOffset == outbound.count {
            outbound.removeAll(keepingCapacity: outbound.capacity <= 64 << 10)
            outboundOffset = 0
            if trailersReady {
                flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue | NGHTTP2_DATA_FLAG_NO_END_STREAM.rawValue
                connection.submitTrailers(streamID: streamID, trailers)
            } else if count == 0 {
                dataDeferred = true
                return Int(NGHTTP2_ERR_DEFERRED.rawValue)
            }
        }
        if let writer, outbound.count - outboundOffset <= core.configuration.responseBufferLimit {
            self.writer = nil
            writer.resume()
        }
        return count
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
