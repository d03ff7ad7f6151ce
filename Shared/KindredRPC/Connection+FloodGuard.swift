/// Feeds the flood guard (`ConnectionState+Frames.swift`) the frames nghttp2 announces and those it skips, and
/// ends a flooding connection with ENHANCE_YOUR_CALM and one line naming what it sent.
extension Connection {
    /// Judges a frame from its header, before its payload is read.
    func frameBegins(type: UInt8, flags: UInt8, length: Int) {
        let header = ConnectionState.FrameHeader(type: type, flags: flags, length: length)
        if state.frameBegins(header, now: loop.now) { calm() }
    }

    /// Counts the DATA frames in `bytes` for streams that are gone, which nghttp2 skips without a callback.
    func scanInbound(_ bytes: UnsafeRawBufferPointer) {
        frameScanner.scan(bytes) { header in
            if header.type == ConnectionState.FrameHeader.data && calls[header.streamID] == nil
                && state.dataForAStreamThatIsGone(now: loop.now)
            {
                calm()
            }
        }
    }

    /// A DATA frame goes out: the client may acknowledge it.
    func dataFrameSent() {
        state.dataFrameSent()
    }

    private func calm() {
        let counter = state.flood.counter
        core.accessLog.connectionRefused(
            "closing a connection that flooded frames without progress", kind: "frame_flood", level: .notice,
            metadata: ["peer": "\(peer)", "limit": "\(counter.limit)", "frames": "\(counter.breakdown)"],
            on: loop)
        perform([.goAway(.enhanceYourCalm)])
    }
}
