internal import CNGHTTP2

/// Ends connections that flood frames carrying no progress, as nghttp2 itself limits RST_STREAM (rapid
/// reset), CONTINUATION and queued SETTINGS/PING acknowledgements.
extension Connection {
    /// How many WINDOW_UPDATE and PING frames each DATA frame the server sends makes free: a client
    /// acknowledges what it receives (grpc-core with a WINDOW_UPDATE for the stream and one for the connection,
    /// and BDP PINGs), so these answer the server's DATA and are progress; beyond that they are not.
    static let acknowledgementsPerDataFrame = 2

    /// Judges a frame from its header, before its payload is read.
    func frameBegins(_ header: nghttp2_frame_hd) {
        let flags = header.flags
        let isAck = flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0
        let carriesNoProgress: Bool
        switch UInt32(header.type) {
        case NGHTTP2_HEADERS.rawValue, NGHTTP2_CONTINUATION.rawValue, NGHTTP2_RST_STREAM.rawValue:
            // Streams opened and reset are bounded by the stream limit and nghttp2's reset rate limit.
            carriesNoProgress = false
        case NGHTTP2_DATA.rawValue:
            // DATA for a stream that is gone never gets here: `scanInbound` counts it.
            carriesNoProgress = header.length == 0 && flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) == 0
        case NGHTTP2_WINDOW_UPDATE.rawValue:
            carriesNoProgress = !spendAcknowledgementCredit()
        case NGHTTP2_SETTINGS.rawValue:
            carriesNoProgress = handshaken
        case NGHTTP2_PING.rawValue:
            carriesNoProgress = !(isAck && pingSentAt != nil) && !spendAcknowledgementCredit()
        default:
            // PRIORITY, GOAWAY, PUSH_PROMISE (refused anyway) and frame types nghttp2 skips unread.
            carriesNoProgress = true
        }
        if carriesNoProgress { countFrameWithoutProgress() }
    }

    /// A DATA frame goes out: the client may acknowledge it.
    func dataFrameSent() {
        acknowledgementCredit = min(acknowledgementCredit + Self.acknowledgementsPerDataFrame, 1 << 20)
    }

    private func spendAcknowledgementCredit() -> Bool {
        guard acknowledgementCredit > 0 else { return false }
        acknowledgementCredit -= 1
        return true
    }

    /// Counts the DATA frames in `bytes` for streams that are gone, which nghttp2 skips without a callback.
    func scanInbound(_ bytes: UnsafeRawBufferPointer) {
        frameScanner.scan(bytes) { header in
            if header.type == NGHTTP2_DATA.rawValue && calls[header.streamID] == nil {
                countFrameWithoutProgress()
            }
        }
    }

    private func countFrameWithoutProgress() {
        guard floodCounter.record(now: loop.now), !calmed else { return }
        calmed = true
        goingAway = true
        core.accessLog.connectionRefused(
            "closing a connection that flooded frames without progress", kind: "frame_flood", level: .notice,
            metadata: ["peer": "\(peer)", "limit": "\(floodCounter.limit)"], on: loop)
        nghttp2_session_terminate_session(session, NGHTTP2_ENHANCE_YOUR_CALM.rawValue)
        markDirty()
    }
}
