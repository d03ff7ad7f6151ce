/// The flood guard: frames that carry no progress are counted (`FrameFloodCounter`), and past the limit the
/// connection is calmed, as nghttp2 itself limits RST_STREAM (rapid reset), CONTINUATION and queued
/// SETTINGS/PING acknowledgements.
extension ConnectionState {
    /// What the guard knows besides the count: what the client may still send as acknowledgements.
    struct FloodGuard {
        var counter: FrameFloodCounter
        /// WINDOW_UPDATE and PING frames the client may still send as acknowledgements of the server's DATA.
        var acknowledgementCredit = 0
        /// The client's first SETTINGS is its handshake; later ones are counted.
        var settingsReceived = false
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

    /// A frame begins, judged from its header before its payload is read; true when it tips the connection
    /// into a flood (the phase is then `calmed`: the caller terminates the session with ENHANCE_YOUR_CALM).
    mutating func frameBegins(_ header: FrameHeader, now: UInt64) -> Bool {
        guard let kind = withoutProgress(header) else { return false }
        return frameWithoutProgress(kind, now: now)
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
            // Streams opened are bounded by the stream limit and nghttp2's reset rate limit.
            earnCredit(Self.acknowledgementsPerHeaders)
            return nil
        case FrameHeader.continuation, FrameHeader.rstStream:
            return nil
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
            return (isAck && pingSentAt != nil) || spendAcknowledgementCredit() ? nil : .ping
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
        return true
    }
}
