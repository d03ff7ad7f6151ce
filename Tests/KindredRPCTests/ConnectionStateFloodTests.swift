import Testing
@testable import KindredRPC

/// The flood guard of `ConnectionState` without sockets: frame headers in, a flood verdict out.
@Suite struct ConnectionStateFloodTests {
    typealias Header = ConnectionState.FrameHeader

    static let limits = ConnectionState.Limits(
        handshakeTimeout: .seconds(5), idleTimeout: .seconds(300), keepaliveInterval: .seconds(120),
        keepaliveTimeout: .seconds(20), maxConnectionAgeGrace: .seconds(30), maxFramesWithoutProgress: 3,
        frameFloodWindow: .seconds(10))

    static let settings = Header(type: Header.settings, flags: 0, length: 0)
    static let settingsAck = Header(type: Header.settings, flags: Header.ack, length: 0)
    static let windowUpdate = Header(type: Header.windowUpdate, flags: 0, length: 4)
    static let ping = Header(type: Header.ping, flags: 0, length: 8)
    static let pingAck = Header(type: Header.ping, flags: Header.ack, length: 8)
    static let emptyData = Header(type: Header.data, flags: 0, length: 0)
    static let endStream = Header(type: Header.data, flags: Header.endStream, length: 0)
    static let message = Header(type: Header.data, flags: 0, length: 6)
    static let headers = Header(type: Header.headers, flags: 0, length: 40)
    static let reset = Header(type: Header.rstStream, flags: 0, length: 4)
    static let priority = Header(type: Header.priority, flags: 0, length: 5)
    static let unknown = Header(type: 0xEE, flags: 0, length: 0)

    static let floods: [(String, [Header])] = [
        ("empty DATA", [emptyData]), ("PRIORITY", [priority]), ("PING", [ping]),
        ("WINDOW_UPDATE with nothing sent", [windowUpdate]), ("an unknown frame type", [unknown]),
        ("SETTINGS after the first", [settings]), ("RST_STREAM", [reset]),
    ]

    /// The client's first SETTINGS, then `limit` frames of the kind are tolerated; one more is a flood.
    @Test(arguments: floods)
    func oneFrameOverTheLimitCalmsTheConnection(_ name: String, _ frames: [Header]) {
        var state = ConnectionState(limits: Self.limits, holdsPlace: true, retiresAt: nil, now: 0)
        var verdicts: [Bool] = [state.frameBegins(Self.settings, now: 0)]
        for _ in 0..<4 { verdicts.append(state.frameBegins(frames[0], now: 1)) }
        #expect(verdicts == [false, false, false, false, true])
        #expect(state.phase == .calmed)
        #expect(state.discardsInput)
        #expect(
            state.flood.calmedBy != nil && state.flood.counter.breakdown.hasPrefix(state.flood.calmedBy!.name)
        )
        let again = state.frameBegins(frames[0], now: 3)
        #expect(!again, "calmed once")
        let finished = state.sessionFinished()
        #expect(finished == [.close], "no linger for a flooder")
    }

    @Test func framesThatCarryProgressAreNeverCounted() {
        var state = ConnectionState(limits: Self.limits, holdsPlace: true, retiresAt: nil, now: 0)
        let calls = Array(repeating: [Self.headers, Self.message, Self.endStream], count: 100)
        var floods = 0
        for frame in [Self.settings] + calls.flatMap({ $0 }) where state.frameBegins(frame, now: 1) {
            floods += 1
        }
        #expect(floods == 0)
        #expect(state.flood.counter.count == 0)
    }

    @Test func eachDataFrameSentFreesTwoAcknowledgements() {
        var state = ConnectionState(limits: Self.limits, holdsPlace: true, retiresAt: nil, now: 0)
        for _ in 0..<100 { state.dataFrameSent() }
        let acknowledgements = Array(repeating: [Self.windowUpdate, Self.ping], count: 100).flatMap { $0 }
        var floods = 0
        for frame in acknowledgements where state.frameBegins(frame, now: 1) { floods += 1 }
        #expect(floods == 0)
        #expect(state.flood.counter.count == 0)
        _ = state.frameBegins(Self.windowUpdate, now: 1)
        #expect(state.flood.counter.count == 1, "the credit is spent")
    }

    /// grpcio's 1,000 calls at once on one TLS connection were cut with ENHANCE_YOUR_CALM: each stream's
    /// WINDOW_UPDATE came in the same read as its HEADERS, before any answer had earned credit.
    @Test func aWindowUpdateForEachNewStreamBeforeAnyAnswerIsNotAFlood() {
        var state = ConnectionState(limits: Self.limits, holdsPlace: true, retiresAt: nil, now: 0)
        var floods = 0
        for frame in [Self.settings, Self.settingsAck] where state.frameBegins(frame, now: 0) { floods += 1 }
        for _ in 0..<1000 {
            for frame in [Self.headers, Self.message, Self.endStream] where state.frameBegins(frame, now: 1) {
                floods += 1
            }
        }
        for _ in 0..<1000 where state.frameBegins(Self.windowUpdate, now: 1) { floods += 1 }
        #expect(floods == 0)
        #expect(state.flood.counter.breakdown == "settings:1")
    }

    @Test func theKeepalivePingsAcknowledgementIsProgress() {
        var state = ConnectionState(limits: Self.limits, holdsPlace: true, retiresAt: nil, now: 0)
        let actions = state.tick(now: 121 * 1_000_000_000, callsOpen: true)
        #expect(actions == [.sendPing])
        _ = state.frameBegins(Self.pingAck, now: 1)
        #expect(state.flood.counter.count == 0)
    }

    @Test func theKeepalivePingEarnsOneAcknowledgementNotAReadFullOfThem() {
        var state = ConnectionState(limits: Self.limits, holdsPlace: true, retiresAt: nil, now: 0)
        let actions = state.tick(now: 121 * 1_000_000_000, callsOpen: true)
        #expect(actions == [.sendPing])
        // Judged before nghttp2 reads them: the PING is still unanswered while all of these are judged.
        let verdicts = (0..<5).map { _ in state.frameBegins(Self.pingAck, now: 1) }
        #expect(verdicts == [false, false, false, false, true])
        #expect(state.flood.counter.breakdown == "ping:4")
    }

    /// nghttp2 refuses a SETTINGS frame of more than 32 entries with ENHANCE_YOUR_CALM and no line; the guard
    /// sees it first, and one is enough.
    @Test func aSettingsFrameOfTooManyEntriesCalmsAtOnce() {
        var state = ConnectionState(limits: Self.limits, holdsPlace: true, retiresAt: nil, now: 0)
        let entries = ConnectionState.maxSettingsEntries
        let allowed = state.frameBegins(Header(type: Header.settings, flags: 0, length: entries * 6), now: 0)
        #expect(!allowed && state.phase == .handshaking)
        let tooMany = state.frameBegins(
            Header(type: Header.settings, flags: 0, length: (entries + 1) * 6), now: 0)
        #expect(tooMany && state.phase == .calmed)
        #expect(state.flood.calmedBy == .settings)
    }

    /// nghttp2 cut the session (acknowledgements queued faster than the peer reads them): calmed once, like
    /// the guard's own floods, so that it too ends with a GOAWAY and a line.
    @Test func aFloodNghttp2CutsIsCalmedOnce() {
        var state = ConnectionState(limits: Self.limits, holdsPlace: true, retiresAt: nil, now: 0)
        _ = state.frameBegins(Self.settings, now: 0)
        let verdicts = [state.libraryFlooded(now: 1), state.libraryFlooded(now: 2)]
        #expect(verdicts == [true, false])
        #expect(state.phase == .calmed && state.flood.calmedBy == .unsentAcknowledgements)
        let finished = state.sessionFinished()
        let closed = state.closed()
        #expect(finished == [.close] && closed == [.tearDown, .releasePlace])
        let afterClose = state.libraryFlooded(now: 3)
        #expect(!afterClose, "a closed connection is not calmed")
    }

    @Test func aNewWindowForgivesTheOldCount() {
        var state = ConnectionState(limits: Self.limits, holdsPlace: true, retiresAt: nil, now: 0)
        for _ in 0..<3 { _ = state.frameBegins(Self.priority, now: 0) }
        let afterTheWindow = state.frameBegins(Self.priority, now: 10_000_000_000)
        let gone = state.dataForAStreamThatIsGone(now: 10_000_000_000)
        #expect(!afterTheWindow && !gone)
        #expect(state.flood.counter.breakdown == "data_for_a_stream_that_is_gone:1,priority:1")
    }
}
