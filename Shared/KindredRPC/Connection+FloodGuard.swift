/// Feeds the flood guard (`ConnectionState+Frames.swift`) the frame headers of each read before nghttp2 reads
/// them, and ends a flooding connection with ENHANCE_YOUR_CALM and one warning naming the peer and what it
/// sent. Judged first, a flood is cut here rather than by nghttp2, which would end it without either.
extension Connection {
    /// Judges each frame header that completes in `bytes`, and notes the streams these bytes reset. DATA is
    /// judged once nghttp2 has read it (`judgeData`), when it is known whether its stream is gone.
    func judgeInbound(_ bytes: UnsafeRawBufferPointer) {
        frameScanner.scan(bytes) { header in
            guard !state.discardsInput else { return }
            switch header.type {
            case ConnectionState.FrameHeader.data: return dataInRead.append(header)
            case ConnectionState.FrameHeader.rstStream: resetsInRead.insert(header.streamID)
            default: break
            }
            if state.frameBegins(ConnectionState.FrameHeader(header), now: loop.now) { calm() }
        }
    }

    /// Judges the DATA of this read: for a stream that is gone (nghttp2 skips it without a callback) or empty,
    /// it is a frame without progress.
    func judgeData() {
        for header in dataInRead where !state.discardsInput {
            let flood =
                calls[header.streamID] == nil
                ? state.dataForAStreamThatIsGone(now: loop.now)
                : state.frameBegins(ConnectionState.FrameHeader(header), now: loop.now)
            if flood { calm() }
        }
    }

    /// nghttp2 refused to read on (`NGHTTP2_ERR_FLOODED`): the flood ends as the guard's own do.
    func libraryFlooded() {
        if state.libraryFlooded(now: loop.now) { calm() }
    }

    /// A DATA frame goes out: the client may acknowledge it.
    func dataFrameSent() {
        state.dataFrameSent()
    }

    private func calm() {
        let counter = state.flood.counter
        core.accessLog.connectionRefused(
            "closing a connection that flooded frames without progress", kind: "frame_flood", level: .warning,
            metadata: [
                "peer": "\(peer)", "kind": "\(state.flood.calmedBy?.name ?? "")", "limit": "\(counter.limit)",
                "frames": "\(counter.breakdown)",
            ],
            on: loop)
        perform([.goAway(.enhanceYourCalm)])
        guard core.configuration.floodCooling > .zero else { return }
        let address = FloodCooling.address(ofPeer: peer)
        core.floodCooling.withLock { $0.calmed(address, now: monotonicNanos()) }
    }
}
