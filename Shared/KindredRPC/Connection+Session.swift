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
        nghttp2_session_callbacks_set_on_begin_frame_callback(callbacks, onBeginFrame)
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, onBeginHeaders)
        nghttp2_session_callbacks_set_on_header_callback(callbacks, onHeader)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, onFrameReceived)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, onDataChunk)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, onStreamClose)
        // Frame types nghttp2 does not know are skipped without a callback; taken as extensions and then
        // dropped, each is seen by `onBeginFrame` and counted as a frame without progress.
        nghttp2_session_callbacks_set_unpack_extension_callback(callbacks, dropExtensionFrame)
        nghttp2_session_callbacks_set_on_extension_chunk_recv_callback(callbacks, skipExtensionChunk)
        pointer = callbacks
        var options: OpaquePointer?
        nghttp2_option_new(&options)
        nghttp2_option_set_no_auto_window_update(options, 1)
        // gRPC ignores stream priorities; without this nghttp2 keeps closed streams in its priority tree
        // (up to the concurrent-stream limit per connection), which at 1,000 busy connections is most
        // of the process's memory.
        nghttp2_option_set_no_closed_streams(options, 1)
        for type in UInt8(NGHTTP2_CONTINUATION.rawValue + 1)...UInt8.max {
            nghttp2_option_set_user_recv_extension_type(options, type)
        }
        self.options = options
    }
}

private func connection(_ userData: UnsafeMutableRawPointer?) -> Connection {
    // user_data is the unretained connection; it outlives its session (deleted in `close()`).
    Unmanaged<Connection>.fromOpaque(userData!).takeUnretainedValue()
}

private func onBeginFrame(
    _ session: OpaquePointer?, _ header: UnsafePointer<nghttp2_frame_hd>?,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    if let header {
        connection(userData).frameBegins(
            type: header.pointee.type, flags: header.pointee.flags, length: header.pointee.length)
    }
    return 0
}

private func dropExtensionFrame(
    _ session: OpaquePointer?, _ payload: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ header: UnsafePointer<nghttp2_frame_hd>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    NGHTTP2_ERR_CANCEL.rawValue
}

private func skipExtensionChunk(
    _ session: OpaquePointer?, _ header: UnsafePointer<nghttp2_frame_hd>?, _ data: UnsafePointer<UInt8>?,
    _ length: Int, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    0
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
