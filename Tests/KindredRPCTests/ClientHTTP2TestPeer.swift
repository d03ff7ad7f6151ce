import CNGHTTP2
@testable import KindredRPC

/// A scripted HTTP/2 server made of a bare nghttp2 server session, for pairing with
/// `HTTP2ClientSession` in memory. Test-only: it answers whatever the test tells it to.
final class ClientHTTP2TestPeer {
    struct Request {
        var headers: [(name: String, value: String)] = []
        var body: [UInt8] = []
    }

    private var session: OpaquePointer!
    private(set) var requests: [Int32: Request] = [:]
    /// The request headers each stream sent as never-indexed literals (HPACK), by name.
    private(set) var neverIndexed: [Int32: [String]] = [:]
    /// Stream ids whose request arrived complete, in arrival order.
    private(set) var completed: [Int32] = []
    private(set) var resetCodes: [Int32: UInt32] = [:]
    private var bodies: [Int32: (bytes: [UInt8], trailers: [(name: String, value: String)])] = [:]

    init(maxConcurrentStreams: UInt32? = nil) {
        var callbacks: OpaquePointer?
        nghttp2_session_callbacks_new(&callbacks)
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_header_callback(callbacks, peerOnHeader)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, peerOnFrame)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, peerOnData)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, peerOnClose)
        nghttp2_session_server_new(&session, callbacks, Unmanaged.passUnretained(self).toOpaque())
        var settings: [nghttp2_settings_entry] = []
        if let maxConcurrentStreams {
            settings.append(
                .init(
                    settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue),
                    value: maxConcurrentStreams))
        }
        nghttp2_submit_settings(session, 0, &settings, settings.count)
    }

    deinit { nghttp2_session_del(session) }

    func receive(_ bytes: [UInt8]) {
        let rv = bytes.withUnsafeBufferPointer { nghttp2_session_mem_recv(session, $0.baseAddress, $0.count) }
        precondition(rv == bytes.count, "peer rejected client bytes: \(rv)")
    }

    func pendingOutput() -> [UInt8] {
        var output: [UInt8] = []
        while true {
            var chunk: UnsafePointer<UInt8>?
            let length = nghttp2_session_mem_send(session, &chunk)
            guard length > 0, let chunk else { return output }
            output.append(contentsOf: UnsafeBufferPointer(start: chunk, count: length))
        }
    }

    /// Answers a stream: headers, then `body` and `trailers` if any; no body and no trailers
    /// makes a trailers-only response (HEADERS with END_STREAM).
    func respond(
        _ streamID: Int32, headers: [(name: String, value: String)],
        body: [UInt8] = [], trailers: [(name: String, value: String)] = []
    ) {
        guard !body.isEmpty || !trailers.isEmpty else {
            HeaderBlock(headers).withNameValues {
                _ = nghttp2_submit_response(session, streamID, $0, $1, nil)
            }
            return
        }
        bodies[streamID] = (body, trailers)
        var provider = nghttp2_data_provider(source: nghttp2_data_source(ptr: nil), read_callback: peerRead)
        HeaderBlock(headers).withNameValues {
            _ = nghttp2_submit_response(session, streamID, $0, $1, &provider)
        }
    }

    func reset(_ streamID: Int32, errorCode: UInt32) {
        nghttp2_submit_rst_stream(session, 0, streamID, errorCode)
    }

    func goAway(lastStreamID: Int32) {
        nghttp2_submit_goaway(session, 0, lastStreamID, NGHTTP2_NO_ERROR.rawValue, nil, 0)
    }

    fileprivate func header(_ streamID: Int32, _ name: String, _ value: String, flags: UInt8) {
        requests[streamID, default: Request()].headers.append((name, value))
        if flags & UInt8(NGHTTP2_NV_FLAG_NO_INDEX.rawValue) != 0 {
            neverIndexed[streamID, default: []].append(name)
        }
    }
    fileprivate func data(_ streamID: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
        requests[streamID, default: Request()].body.append(contentsOf: bytes)
    }
    fileprivate func ended(_ streamID: Int32) { completed.append(streamID) }
    fileprivate func closed(_ streamID: Int32, _ code: UInt32) {
        if code != 0 { resetCodes[streamID] = code }
    }

    fileprivate func read(
        _ streamID: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ length: Int,
        _ flags: UnsafeMutablePointer<UInt32>
    ) -> Int {
        guard let pending = bodies[streamID] else { return 0 }
        let count = min(length, pending.bytes.count)
        pending.bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: count) }
        bodies[streamID]!.bytes.removeFirst(count)
        if bodies[streamID]!.bytes.isEmpty {
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            if !pending.trailers.isEmpty {
                flags.pointee |= NGHTTP2_DATA_FLAG_NO_END_STREAM.rawValue
                HeaderBlock(pending.trailers).withNameValues {
                    _ = nghttp2_submit_trailer(session, streamID, $0, $1)
                }
            }
            bodies[streamID] = nil
        }
        return count
    }
}

/// Moves bytes both ways until neither side has anything left to say.
func exchange(_ client: HTTP2ClientSession, _ peer: ClientHTTP2TestPeer) throws {
    while true {
        let toPeer = try client.pendingOutput()
        if !toPeer.isEmpty { peer.receive(toPeer) }
        let toClient = peer.pendingOutput()
        if !toClient.isEmpty { try toClient.withUnsafeBytes { try client.receive($0) } }
        if toPeer.isEmpty && toClient.isEmpty { return }
    }
}

private func peerOwner(_ userData: UnsafeMutableRawPointer?) -> ClientHTTP2TestPeer {
    Unmanaged<ClientHTTP2TestPeer>.fromOpaque(userData!).takeUnretainedValue()
}

private func peerOnHeader(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ name: UnsafePointer<UInt8>?,
    _ nameLength: Int,
    _ value: UnsafePointer<UInt8>?, _ valueLength: Int, _ flags: UInt8, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    peerOwner(userData).header(
        frame!.pointee.hd.stream_id,
        String(decoding: UnsafeBufferPointer(start: name, count: nameLength), as: UTF8.self),
        String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self), flags: flags)
    return 0
}

private func peerOnFrame(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    let header = frame!.pointee.hd
    let isRequestFrame = header.type == NGHTTP2_HEADERS.rawValue || header.type == NGHTTP2_DATA.rawValue
    if isRequestFrame && header.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0 {
        peerOwner(userData).ended(header.stream_id)
    }
    return 0
}

private func peerOnData(
    _ session: OpaquePointer?, _ flags: UInt8, _ streamID: Int32, _ data: UnsafePointer<UInt8>?,
    _ length: Int,
    _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    peerOwner(userData).data(streamID, UnsafeBufferPointer(start: data, count: length))
    return 0
}

private func peerOnClose(
    _ session: OpaquePointer?, _ streamID: Int32, _ code: UInt32, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    peerOwner(userData).closed(streamID, code)
    return 0
}

private func peerRead(
    _ session: OpaquePointer?, _ streamID: Int32, _ buffer: UnsafeMutablePointer<UInt8>?, _ length: Int,
    _ flags: UnsafeMutablePointer<UInt32>?, _ source: UnsafeMutablePointer<nghttp2_data_source>?,
    _ userData: UnsafeMutableRawPointer?
) -> Int {
    peerOwner(userData).read(streamID, buffer!, length, flags!)
}

extension HTTP2ClientSession {
    /// The bytes nghttp2 wants to send now (frames, flow control, request bodies), in one array; empty when
    /// idle. The tests' view of `sendPending(gatheringIn:_:)`.
    func pendingOutput() throws(HTTP2SessionError) -> [UInt8] {
        var output: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 1)
        defer { buffer.deallocate() }
        try sendPending(gatheringIn: buffer) { bytes, count in
            output.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: count))
            return true
        }
        return output
    }
}
