/// The flood guard: frames that carry no progress are counted (`FrameFloodCounter`), and past the limit the
/// connection is calmed. The guard judges each frame from its header before nghttp2 reads it, so that a flood
/// nghttp2 would also cut (queued SETTINGS/PING acknowledgements, rapid reset, SETTINGS of too many entries)
/// is cut here first, with a GOAWAY and a line naming it, rather than by the library without either.
extension ConnectionState {
    /// What the guard knows besides the count: what the client may still send as acknowledgements.
    struct FloodGuard {
        var counter: FrameFloodCounter
        /// WINDOW_UPDATE and PING frames the client may still send as acknowledgements of the server's DATA.
        var acknowledgementCredit = 0
        /// The client's first SETTINGS is its handshake; later ones are counted.
        var settingsReceived = false
        /// Whether the one PING ACK the keepalive's PING earns has been taken (frames are judged before
        /// nghttp2 reads them, so a read full of ACKs must not all pass while the PING is still unanswered).
        var keepaliveAcknowledged = false
        /// The kind of the frame that calmed the connection, for its line.
        var calmedBy: FrameFloodCounter.Kind?
    }

    /// An HTTP/2 frame's header, as much of it as the guard judges.
    struct FrameHeader: Equatable, Sendable {
        var type: UInt8
        var flags: UInt8
        var length: Int

        static let data: UInt8 = 0, headers: UInt8 = 1, priority: UInt8 = 2, rstStream: UInt8 = 3
        static let settings: UInt8 = 4, pushPromise: UInt8 = 5, ping: UInt8 = 6, goAway: UInt8 = 7
        static let windowUpdate: UInt8 = 8, continuation: UInt8 = 9
        static let endStream: UInt8 = 1, ack: UInt8 = 1
    }

    /// How many WINDOW_UPDATE and PING frames each DATA frame the server sends makes free: a client
    /// acknowledges what it receives (grpc-core with a WINDOW_UPDATE for the stream and one for the connection,
    /// and BDP PINGs), so these answer the server's DATA and are progress; beyond that they are not.
    static let acknowledgementsPerDataFrame = 2

    /// How many WINDOW_UPDATE frames each HEADERS frame the client sends makes free: grpc-core widens each new
    /// stream's window with a WINDOW_UPDATE right after its HEADERS, before any answer. 1,000 calls at once on
    /// one TLS connection arrive in one read, so those 1,000 WINDOW_UPDATEs came before any DATA had earned
    /// credit and tipped the guard (`window_update:1000,settings:1`); on h2c the answers interleaved.
    static let acknowledgementsPerHeaders = 1

    /// The most entries a SETTINGS frame may carry (nghttp2's `max_settings`): a larger one is refused at once.
    static let maxSettingsEntries = 32

    /// A frame begins, judged from its header before its payload is read; true when it tips the connection
    /// into a flood (the phase is then `calmed`: the caller terminates the session with ENHANCE_YOUR_CALM).
    mutating func frameBegins(_ header: FrameHeader, now: UInt64) -> Bool {
        if header.type == FrameHeader.settings && header.length / 6 > Self.maxSettingsEntries {
            return calm(.settings, now: now)
        }
        guard let kind = withoutProgress(header) else { return false }
        return frameWithoutProgress(kind, now: now)
    }

    /// nghttp2 cut the session itself (`NGHTTP2_ERR_FLOODED`: more acknowledgements queued unsent than it
    /// allows); true when this is news (the phase is then `calmed`, as for the guard's own verdict).
    mutating func libraryFlooded(now: UInt64) -> Bool {
        calm(.unsentAcknowledgements, now: now)
    }

    /// DATA for a stream that is gone, which nghttp2 skips without a callback (`FrameHeaderScanner` sees it).
    mutating func dataForAStreamThatIsGone(now: UInt64) -> Bool {
        frameWithoutProgress(.dataForAStreamThatIsGone, now: now)
    }

    /// A DATA frame goes out: the client may acknowledge it.
    mutating func dataFrameSent() {
        earnCredit(Self.acknowledgementsPerDataFrame)
    }

    private mutating func earnCredit(_ frames: Int) {
        flood.acknowledgementCredit = min(flood.acknowledgementCredit + frames, 1 << 20)
    }

    private mutating func withoutProgress(_ header: FrameHeader) -> FrameFloodCounter.Kind? {
        let isAck = header.flags & FrameHeader.ack != 0
        switch header.type {
        case FrameHeader.headers:
            // Streams opened are bounded by the stream limit, and their resets are counted.
            earnCredit(Self.acknowledgementsPerHeaders)
            return nil
        case FrameHeader.continuation:
            return nil
        case FrameHeader.rstStream:
            // A client cancels a call now and then; a stream of resets costs the server the calls it opened
            // for nothing (rapid reset), and nghttp2 cuts them without a word after 1,000.
            return .rstStream
        case FrameHeader.data:
            let empty = header.length == 0 && header.flags & FrameHeader.endStream == 0
            return empty ? .emptyData : nil
        case FrameHeader.windowUpdate:
            return spendAcknowledgementCredit() ? nil : .windowUpdate
        case FrameHeader.settings:
            if isAck || flood.settingsReceived { return .settings }
            flood.settingsReceived = true
            return nil
        case FrameHeader.ping:
            if isAck && pingSentAt != nil && !flood.keepaliveAcknowledged {
                flood.keepaliveAcknowledged = true
                return nil
            }
            return spendAcknowledgementCredit() ? nil : .ping
        case FrameHeader.priority: return .priority
        case FrameHeader.goAway: return .goAway
        case FrameHeader.pushPromise: return .pushPromise
        default: return .unknownType
        }
    }

    private mutating func spendAcknowledgementCredit() -> Bool {
        guard flood.acknowledgementCredit > 0 else { return false }
        flood.acknowledgementCredit -= 1
        return true
    }

    private mutating func frameWithoutProgress(_ kind: FrameFloodCounter.Kind, now: UInt64) -> Bool {
        guard flood.counter.record(kind, now: now), phase != .calmed, phase != .closed else { return false }
        phase = .calmed
        flood.calmedBy = kind
        return true
    }

    /// Calms the connection at once, whatever the count.
    private mutating func calm(_ kind: FrameFloodCounter.Kind, now: UInt64) -> Bool {
        _ = flood.counter.record(kind, now: now)
        guard phase != .calmed, phase != .closed else { return false }
        phase = .calmed
        flood.calmedBy = kind
        return true
    }
}
