internal import CNGHTTP2

/// The nghttp2 server session of a connection: setup, submissions, and the callbacks that drive calls.
extension Connection {
    func makeSession() -> OpaquePointer? {
        var session: OpaquePointer?
        let configuration = core.configuration
        guard
            nghttp2_session_server_new2(
                &session, SessionCallbacks.shared.pointer,
                Unmanaged.passUnretained(self).toOpaque(), SessionCallbacks.shared.options) == 0
        else { return nil }
        var settings = [
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue),
                value: UInt32(configuration.maxConcurrentStreams)),
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue),
                value: UInt32(configuration.maxHeaderListSize)),
        ]
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
        // The connection window is what all streams share; 1 MiB keeps many concurrent uploads moving.
        nghttp2_session_set_local_window_size(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, 1 << 20)
        return session
    }

    func submitResponse(streamID: Int32, _ headers: HeaderBlock, data: nghttp2_data_provider?) {
        headers.withNameValues { submitResponse(streamID: streamID, $0, $1, data: data) }
    }

    func submitResponse(
        streamID: Int32, _ nameValues: UnsafePointer<nghttp2_nv>, _ count: Int,
        data: nghttp2_data_provider?
    ) {
        guard !closed else { return }
        if var data {
            nghttp2_submit_response(session, streamID, nameValues, count, &data)
        } else {
            nghttp2_submit_response(session, streamID, nameValues, count, nil)
        }
    }

    /// Submits trailers; nil means the shared `grpc-status: 0`.
    func submitTrailers(streamID: Int32, _ trailers: HeaderBlock?) {
        guard let trailers else {
            nghttp2_submit_trailer(session, streamID, StaticHeaders.shared.okTrailers, 1)
            return
        }
        trailers.withNameValues { _ = nghttp2_submit_trailer(session, streamID, $0, $1) }
    }

    func resumeData(_ streamID: Int32) {
        guard !closed else { return }
        nghttp2_session_resume_data(session, streamID)
    }

    /// Returns received bytes to the peer's flow-control windows (automatic updates are off).
    func consume(_ streamID: Int32, _ count: Int) {
        guard !closed, count > 0 else { return }
        nghttp2_session_consume_connection(session, count)
        nghttp2_session_consume_stream(session, streamID, count)
    }

    fileprivate func beginCall(_ streamID: Int32) {
        loop.requestCounter &+= 1
        let call = ServerCall(streamID: streamID, connection: self, requestNumber: loop.requestCounter)
        calls[streamID] = call
        receivingHeaders = call
    }

    fileprivate func endCall(_ streamID: Int32) {
        guard let call = calls.removeValue(forKey: streamID) else { return }
        if receivingHeaders === call { receivingHeaders = nil }
        call.streamDidClose()
        if calls.isEmpty { state.callsEnded(now: loop.now) }
    }

    fileprivate func frameReceived(_ frame: UnsafePointer<nghttp2_frame>) {
        state.frameReceived(now: loop.now)
        let header = frame.pointee.hd
        let endStream = header.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
        switch UInt32(header.type) {
        case NGHTTP2_HEADERS.rawValue:
            guard let call = calls[header.stream_id] else { return }
            if frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST {
                receivingHeaders = nil
                if resetsInRead.contains(header.stream_id) { return dropCallResetBeforeItStarted(call) }
                call.headersReceived(endStream: endStream)
            } else if endStream {
                call.inboundEnded()
            }
        case NGHTTP2_DATA.rawValue:
            if endStream { calls[header.stream_id]?.inboundEnded() }
        case NGHTTP2_PING.rawValue:
            if header.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0 { state.pingAcknowledged() }
        case NGHTTP2_SETTINGS.rawValue:
            if header.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) == 0 { perform(state.handshakeCompleted()) }
        default:
            break
        }
    }

    /// The client reset the stream in the read that opened it: nothing of the call runs (no routing, no token
    /// check, no handler, no answer) and it leaves no line, only a count in the metrics (a rapid reset's
    /// connections once left a summary line each: 0.5 MB of log in 10 s from 4 attackers).
    private func dropCallResetBeforeItStarted(_ call: ServerCall) {
        calls.removeValue(forKey: call.streamID)
        core.accessLog.resetsBeforeStart.add(0)
        if calls.isEmpty { state.callsEnded(now: loop.now) }
    }

    fileprivate func dataReceived(_ streamID: Int32, _ chunk: UnsafeRawBufferPointer) {
        if let call = calls[streamID] {
            call.receiveData(chunk)
        } else {
            nghttp2_session_consume_connection(session, chunk.count)
        }
    }
}

/// The callback table and options every session is created from, built once and never freed.
private struct SessionCallbacks: @unchecked Sendable {
    // Immutable after initialisation; nghttp2 copies both into each new session.
    let pointer: OpaquePointer?
    let options: OpaquePointer?

    static let shared = SessionCallbacks()

    private init() {
        var callbacks: OpaquePointer?
        nghttp2_session_callbacks_new(&callbacks)
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, onBeginHeaders)
        nghttp2_session_callbacks_set_on_header_callback(callbacks, onHeader)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, onFrameReceived)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, onDataChunk)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, onStreamClose)
        pointer = callbacks
        var options: OpaquePointer?
        nghttp2_option_new(&options)
        nghttp2_option_set_no_auto_window_update(options, 1)
        // gRPC ignores stream priorities; without this nghttp2 keeps closed streams in its priority tree
        // (up to the concurrent-stream limit per connection), which at 1,000 busy connections is most
        // of the process's memory.
        nghttp2_option_set_no_closed_streams(options, 1)
        // The flood guard counts resets (`ConnectionState+Frames.swift`) and ends a rapid reset with
        // ENHANCE_YOUR_CALM and a line; nghttp2's own limit (1,000, then 33 a second) would end it first with
        // INTERNAL_ERROR and no line, so it is only a backstop here, beyond the guard's default 100 a second.
        nghttp2_option_set_stream_reset_rate_limit(options, 10_000, 1_000)
        self.options = options
    }
}

private func connection(_ userData: UnsafeMutableRawPointer?) -> Connection {
    // user_data is the unretained connection; it outlives its session (deleted in `close()`).
    Unmanaged<Connection>.fromOpaque(userData!).takeUnretainedValue()
}

private func onBeginHeaders(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let frame, UInt32(frame.pointee.hd.type) == NGHTTP2_HEADERS.rawValue,
        frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST
    else { return 0 }
    connection(userData).beginCall(frame.pointee.hd.stream_id)
    return 0
}

private func onHeader(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ name: UnsafePointer<UInt8>?,
    _ nameLength: Int,
    _ value: UnsafePointer<UInt8>?, _ valueLength: Int, _ flags: UInt8, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    let owner = connection(userData)
    guard let frame, frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST else { return 0 }
    guard let call = owner.receivingHeaders, call.streamID == frame.pointee.hd.stream_id else { return 0 }
    call.head.add(
        name: UnsafeBufferPointer(start: name, count: nameLength),
        value: UnsafeBufferPointer(start: value, count: valueLength),
        limit: owner.core.configuration.maxHeaderListSize)
    return 0
}

private func onFrameReceived(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    if let frame { connection(userData).frameReceived(frame) }
    return 0
}

private func onDataChunk(
    _ session: OpaquePointer?, _ flags: UInt8, _ streamID: Int32, _ data: UnsafePointer<UInt8>?,
    _ length: Int,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    connection(userData).dataReceived(streamID, UnsafeRawBufferPointer(start: data, count: length))
    return 0
}

private func onStreamClose(
    _ session: OpaquePointer?, _ streamID: Int32, _ errorCode: UInt32, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    connection(userData).endCall(streamID)
    return 0
}
