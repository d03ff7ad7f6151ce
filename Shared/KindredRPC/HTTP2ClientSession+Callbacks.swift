internal import CNGHTTP2

extension HTTP2ClientSession {
    /// Registers the nghttp2 callbacks; each recovers its session from `user_data`.
    static func install(_ callbacks: OpaquePointer?) {
        nghttp2_session_callbacks_set_on_header_callback(callbacks, onHeader)
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, onFrameReceived)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, onDataChunk)
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, onStreamClose)
    }

    func headerReceived(streamID: Int32, name: String, value: String) {
        guard let stream = streams[streamID] else { return }
        stream.headerBlock.append((name, value))
    }

    /// A complete header block: the response headers first, any later block is the trailers.
    func headerBlockEnded(streamID: Int32) {
        guard let stream = streams[streamID] else { return }
        let block = stream.headerBlock
        stream.headerBlock = []
        if stream.sawResponseHeaders {
            stream.onEvent(.trailers(block))
        } else {
            stream.sawResponseHeaders = true
            stream.onEvent(.headers(block))
        }
    }

    func dataReceived(streamID: Int32, bytes: UnsafeBufferPointer<UInt8>) {
        // Looked up first: the handler may touch `streams` (a reset), which must not overlap this access.
        guard let stream = streams[streamID] else { return }
        stream.onEvent(.data(Array(bytes)))
    }

    func streamClosed(streamID: Int32, errorCode: UInt32) {
        guard let stream = streams.removeValue(forKey: streamID) else { return }
        stream.onEvent(
            .closed(Self.closure(streamID: streamID, errorCode: errorCode, goAway: goAwayLastStreamID)))
    }

    /// Classifies a stream's end; REFUSED_STREAM and streams past a GOAWAY were never processed.
    static func closure(streamID: Int32, errorCode: UInt32, goAway lastStreamID: Int32?) -> HTTP2StreamClosure
    {
        if let lastStreamID, streamID > lastStreamID { return .refused }
        switch errorCode {
        case NGHTTP2_NO_ERROR.rawValue: return .finished
        case NGHTTP2_REFUSED_STREAM.rawValue: return .refused
        default: return .reset(errorCode: errorCode)
        }
    }
}

private func owner(_ userData: UnsafeMutableRawPointer?) -> HTTP2ClientSession {
    Unmanaged<HTTP2ClientSession>.fromOpaque(userData!).takeUnretainedValue()
}

private func onHeader(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?,
    _ name: UnsafePointer<UInt8>?, _ nameLength: Int, _ value: UnsafePointer<UInt8>?, _ valueLength: Int,
    _ flags: UInt8, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let frame, let name, let value else { return 0 }
    owner(userData).headerReceived(
        streamID: frame.pointee.hd.stream_id,
        name: String(decoding: UnsafeBufferPointer(start: name, count: nameLength), as: UTF8.self),
        value: String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self))
    return 0
}

private func onFrameReceived(
    _ session: OpaquePointer?, _ frame: UnsafePointer<nghttp2_frame>?, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let frame else { return 0 }
    let header = frame.pointee.hd
    switch Int(header.type) {
    case Int(NGHTTP2_HEADERS.rawValue):
        owner(userData).headerBlockEnded(streamID: header.stream_id)
    case Int(NGHTTP2_GOAWAY.rawValue):
        owner(userData).goAwayLastStreamID = frame.pointee.goaway.last_stream_id
    default:
        break
    }
    return 0
}

private func onDataChunk(
    _ session: OpaquePointer?, _ flags: UInt8, _ streamID: Int32,
    _ data: UnsafePointer<UInt8>?, _ length: Int, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    guard let data else { return 0 }
    owner(userData).dataReceived(streamID: streamID, bytes: UnsafeBufferPointer(start: data, count: length))
    return 0
}

private func onStreamClose(
    _ session: OpaquePointer?, _ streamID: Int32, _ errorCode: UInt32, _ userData: UnsafeMutableRawPointer?
) -> Int32 {
    owner(userData).streamClosed(streamID: streamID, errorCode: errorCode)
    return 0
}
