internal import CNGHTTP2

extension HTTP2ClientSession {
    /// Opens a request stream with a complete body: `headers`, then `body`, then END_STREAM.
    func startStream(
        headers: [(name: String, value: String)],
        body: [UInt8],
        onEvent: @escaping (HTTP2ClientStreamEvent) -> Void
    ) throws(HTTP2SessionError) -> Int32 {
        try startStream(headers: headers, body: HTTP2RequestBody(body), onEvent: onEvent)
    }

    /// Opens a request stream: `headers` (pseudo-headers first), then `body` as it is given (see
    /// `resumeBody`), then END_STREAM once it is complete. nghttp2 holds the stream back while the
    /// peer's SETTINGS_MAX_CONCURRENT_STREAMS is reached and sends it once a sibling closes.
    /// Returns the stream id.
    func startStream(
        headers: [(name: String, value: String)],
        body: HTTP2RequestBody,
        onEvent: @escaping (HTTP2ClientStreamEvent) -> Void
    ) throws(HTTP2SessionError) -> Int32 {
        try startStream(headers: HeaderBlock(headers), body: body, onEvent: onEvent)
    }

    /// `startStream` with the headers as a `HeaderBlock` (a call adds its `grpc-timeout` without copying the
    /// list its attempts share).
    func startStream(
        headers: HeaderBlock,
        body: HTTP2RequestBody,
        onEvent: @escaping (HTTP2ClientStreamEvent) -> Void
    ) throws(HTTP2SessionError) -> Int32 {
        guard canOpenStreams else { throw .protocolError("the connection is going away") }
        let stream = Stream(body: body, onEvent: onEvent)
        var provider = nghttp2_data_provider(
            source: nghttp2_data_source(ptr: nil), read_callback: readRequestBody)
        let streamID = headers.withNameValues { fields, count in
            nghttp2_submit_request(session, nil, fields, count, &provider, nil)
        }
        guard streamID > 0 else { throw .protocolError(String(cString: nghttp2_strerror(streamID))) }
        streams[streamID] = stream
        return streamID
    }

    /// Resets a stream with CANCEL (the caller gave up); its `.closed` event still follows.
    func cancelStream(_ streamID: Int32) {
        guard streams[streamID] != nil else { return }
        nghttp2_submit_rst_stream(
            session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, NGHTTP2_CANCEL.rawValue)
    }

    /// Tells nghttp2 that a stream's body, which had run dry, has bytes (or its end) to send.
    func resumeBody(_ streamID: Int32) {
        guard streams[streamID] != nil else { return }
        nghttp2_session_resume_data(session, streamID)
    }

    /// Queues a PING; any frame from the peer afterwards shows the connection is alive.
    func ping() {
        nghttp2_submit_ping(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nil)
    }

    /// Tells the peer this side opens no more streams; open ones run to their end, after which
    /// the session is no longer alive.
    func goAway() {
        sentGoAway = true
        nghttp2_submit_goaway(
            session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nghttp2_session_get_last_proc_stream_id(session),
            NGHTTP2_NO_ERROR.rawValue, nil, 0)
    }

    /// Copies request body bytes into nghttp2's frame buffer, flagging END_STREAM after the last.
    func readBody(streamID: Int32, into buffer: UnsafeMutablePointer<UInt8>, length: Int)
        -> HTTP2RequestBody.Read
    {
        guard let stream = streams[streamID] else { return .bytes(0, isLast: true) }
        return stream.body.read(into: buffer, length: length)
    }
}

/// nghttp2's data source callback: recovers the session from `user_data` and copies body bytes.
private func readRequestBody(
    _ session: OpaquePointer?, _ streamID: Int32, _ buffer: UnsafeMutablePointer<UInt8>?, _ length: Int,
    _ dataFlags: UnsafeMutablePointer<UInt32>?, _ source: UnsafeMutablePointer<nghttp2_data_source>?,
    _ userData: UnsafeMutableRawPointer?
) -> Int {
    guard let userData, let buffer, let dataFlags else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
    let owner = Unmanaged<HTTP2ClientSession>.fromOpaque(userData).takeUnretainedValue()
    switch owner.readBody(streamID: streamID, into: buffer, length: length) {
    case .deferred:
        return Int(NGHTTP2_ERR_DEFERRED.rawValue)
    case .bytes(let count, let isLast):
        if isLast { dataFlags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue }
        return count
    }
}
