internal import CNGHTTP2

/// One nghttp2 client session: the HTTP/2 side of a client connection, apart from any socket.
/// Feed it the bytes read from the peer with `receive(_:)`, send what `sendPending(gatheringIn:_:)` hands over.
/// It belongs to one event loop thread; nothing in it is thread-safe.
final class HTTP2ClientSession {
    /// One open request stream: the body still to send and whom to tell about the response.
    final class Stream {
        let onEvent: (HTTP2ClientStreamEvent) -> Void
        let body: HTTP2RequestBody
        var headerBlock: [(name: String, value: String)] = []
        var sawResponseHeaders = false

        init(body: HTTP2RequestBody, onEvent: @escaping (HTTP2ClientStreamEvent) -> Void) {
            self.body = body
            self.onEvent = onEvent
        }
    }

    // Owned: created in init, deleted exactly once in deinit.
    private(set) var session: OpaquePointer!
    var streams: [Int32: Stream] = [:]
    /// The last stream id of the peer's GOAWAY, once one arrived; no new stream may start then.
    var goAwayLastStreamID: Int32?
    /// Whether any byte of the server's arrived: its SETTINGS, the first frame it sends, or, under TLS, an alert
    /// (`ClientConnection.receive`).
    var heardFromServer = false

    /// Creates the session and queues the client preface's SETTINGS frame.
    init(maxFrameSize: Int = 16_384, initialWindowSize: Int = 1 << 20) {
        var callbacks: OpaquePointer?
        precondition(nghttp2_session_callbacks_new(&callbacks) == 0, "nghttp2 out of memory")
        defer { nghttp2_session_callbacks_del(callbacks) }
        Self.install(callbacks)
        var options: OpaquePointer?
        precondition(nghttp2_option_new(&options) == 0, "nghttp2 out of memory")
        defer { nghttp2_option_del(options) }
        // Response bytes are acknowledged as the caller consumes them: a slow reader throttles the server.
        nghttp2_option_set_no_auto_window_update(options, 1)
        var session: OpaquePointer?
        let rv = nghttp2_session_client_new2(
            &session, callbacks, Unmanaged.passUnretained(self).toOpaque(), options)
        precondition(rv == 0, "nghttp2 out of memory")
        self.session = session
        var settings = [
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), value: 0),
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue),
                value: UInt32(initialWindowSize)),
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_FRAME_SIZE.rawValue), value: UInt32(maxFrameSize)),
        ]
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count)
        // A large connection window so that one slow stream does not stall its siblings.
        nghttp2_session_set_local_window_size(
            session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, Int32(initialWindowSize * 16))
    }

    deinit {
        nghttp2_session_del(session)
    }

    /// Processes bytes read from the peer, delivering stream events synchronously.
    func receive(_ bytes: UnsafeRawBufferPointer) throws(HTTP2SessionError) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        heardFromServer = true
        let consumed = nghttp2_session_mem_recv(
            session, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        if consumed < 0 {
            throw .protocolError(String(cString: nghttp2_strerror(Int32(consumed))))
        }
    }

    /// Hands what nghttp2 wants to send now to `write`, gathered in `buffer` (a connection's loop's write
    /// buffer, so a flush allocates nothing) and handed over whenever it is full and at the end; a frame larger
    /// than the buffer goes on its own. Stops when `write` returns false (the socket failed).
    func sendPending(
        gatheringIn buffer: UnsafeMutableRawBufferPointer, _ write: (UnsafeRawPointer, Int) -> Bool
    ) throws(HTTP2SessionError) {
        let base = buffer.baseAddress!
        var used = 0
        while true {
            var chunk: UnsafePointer<UInt8>?
            let length = nghttp2_session_mem_send(session, &chunk)
            if length < 0 { throw .protocolError(String(cString: nghttp2_strerror(Int32(length)))) }
            guard length > 0, let chunk else { break }
            if used + length > buffer.count {
                guard used == 0 || write(base, used) else { return }
                used = 0
            }
            if length > buffer.count {
                guard write(chunk, length) else { return }
            } else {
                (base + used).copyMemory(from: chunk, byteCount: length)
                used += length
            }
        }
        if used > 0 { _ = write(base, used) }
    }

    /// False once neither side has anything more to say: the connection can be closed.
    var isAlive: Bool {
        nghttp2_session_want_read(session) != 0 || nghttp2_session_want_write(session) != 0
    }

    /// The peer's SETTINGS_MAX_CONCURRENT_STREAMS (unbounded until it says otherwise).
    var peerMaxConcurrentStreams: Int {
        Int(nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS))
    }

    /// Set once this side sent GOAWAY: it opens no more streams.
    var sentGoAway = false

    /// Whether a new stream may still be opened on this session.
    var canOpenStreams: Bool {
        !sentGoAway && goAwayLastStreamID == nil && nghttp2_session_check_request_allowed(session) != 0
    }

    /// Returns flow-control window for response bytes the caller has taken off a stream.
    func consume(streamID: Int32, count: Int) {
        guard count > 0 else { return }
        if streams[streamID] != nil {
            nghttp2_session_consume(session, streamID, count)
        } else {
            nghttp2_session_consume_connection(session, count)
        }
    }

    /// Ends every open stream, e.g. when the socket failed: `.connectionLost`, or `.refused` when the server never
    /// said a word. A Kindred server writes its SETTINGS before it reads a request, so a connection that closed
    /// before them processed nothing: a replica that closed its listener with the connection still in the kernel's
    /// accept queue (a drain, a crash), which resets it. Sent again at once, such a call finds another replica.
    func failAllStreams() {
        let open = streams
        streams.removeAll()
        let closure: HTTP2StreamClosure = heardFromServer ? .connectionLost : .refused
        for (_, stream) in open.sorted(by: { $0.key < $1.key }) { stream.onEvent(.closed(closure)) }
    }
}

/// Why an HTTP/2 client session failed as a whole.
enum HTTP2SessionError: Error, Equatable {
    case protocolError(String)
}
