/// The lifecycle of one server connection apart from its socket, nghttp2 and the loop's timers: events in
/// (`ConnectionState+Events.swift`, `ConnectionState+Frames.swift`), actions out for `Connection` to carry
/// out. Times are the loop's monotonic nanoseconds, passed in with each event, so the handshake deadline,
/// keepalive, idle timeout, maximum age and the flood guard are tested as tables without sockets or sleeps.
struct ConnectionState {
    enum Phase: Equatable {
        /// Accepted; the client's preface and first SETTINGS have not arrived yet.
        case handshaking
        /// Serving calls.
        case open
        /// The GOAWAY notice of its age went out; the final GOAWAY follows (`Timer.finalGoAway`).
        case retiring
        /// A GOAWAY went out (idle, drain, shed, age, refusal): calls in flight finish, no new stream is taken.
        case goingAway
        /// The peer flooded frames without progress: its GOAWAY goes out, then the socket closes at once.
        case calmed
        /// Everything is written (a GOAWAY last) and the socket half-closed: input is discarded until the peer
        /// closes, so that the kernel does not answer unread input with a RST that could destroy the GOAWAY.
        case lingering
        case closed
    }

    /// The timers a connection arms on its loop; each one's expiry comes back as an event.
    enum Timer: Equatable, Sendable {
        case handshakeDeadline, finalGoAway, grace, linger
    }

    enum GoAway: Equatable, Sendable {
        /// Last stream 2^31-1: streams already on their way are still taken (the start of an age's retirement).
        case notice
        /// NO_ERROR naming the last stream taken.
        case lastStreamTaken
        /// REFUSED_STREAM "too many connections", accepting no stream.
        case refusal
        /// The session ends with ENHANCE_YOUR_CALM.
        case enhanceYourCalm
    }

    enum Action: Equatable, Sendable {
        case arm(Timer, after: Duration)
        case cancel(Timer)
        case sendPing
        case goAway(GoAway)
        /// Half-close the socket (`Phase.lingering`).
        case halfClose
        /// A server stream still open ends with UNAVAILABLE `SERVER_SHUTTING_DOWN`; what is queued is written.
        case endStreams
        /// End the connection now (`Connection.close()`, which answers the `closed()` event).
        case close
        /// Close the socket, free the session and end every call still on it.
        case tearDown
        /// Give up the connection's place under `maxConnections`.
        case releasePlace
    }

    /// The times and limits the events are judged by (from `ServerConfiguration`).
    struct Limits: Equatable, Sendable {
        var handshakeTimeout: Duration
        var idleTimeout: Duration
        var keepaliveInterval: Duration
        var keepaliveTimeout: Duration
        var maxConnectionAgeGrace: Duration
        var maxFramesWithoutProgress: Int
        var frameFloodWindow: Duration
        /// How long a connection lingers half-closed for the peer to close first.
        var linger: Duration = .seconds(2)
        /// The most bytes one loop turn reads of a connection (`ConnectionState+ReadTurn.swift`): one frame of
        /// the default maximum size, one TLS record.
        var readBudget = 16 << 10
    }

    let limits: Limits
    var phase = Phase.handshaking
    /// Whether the connection holds one of the server's `maxConnections` places.
    var holdsPlace: Bool
    /// When the connection reaches its maximum age (`Connection+Age.swift`); nil when the server sets none.
    let retiresAt: UInt64?
    var lastReceived: UInt64
    var idleSince: UInt64
    /// When the unanswered keepalive PING went out.
    var pingSentAt: UInt64?
    var flood: FloodGuard
    /// What the current loop turn may still read of the connection.
    var readLeftInTurn = 0

    init(limits: Limits, holdsPlace: Bool, retiresAt: UInt64?, now: UInt64) {
        self.limits = limits
        self.holdsPlace = holdsPlace
        self.retiresAt = retiresAt
        lastReceived = now
        idleSince = now
        flood = FloodGuard(
            counter: FrameFloodCounter(
                limit: limits.maxFramesWithoutProgress, window: limits.frameFloodWindow, now: now))
    }

    var isClosed: Bool { phase == .closed }

    /// Input is read and dropped rather than given to nghttp2.
    var discardsInput: Bool { phase == .lingering || phase == .calmed }

    /// Whether a GOAWAY (of any kind but the age's notice) has gone out.
    var hasSentGoAway: Bool {
        switch phase {
        case .handshaking, .open, .retiring: false
        case .goingAway, .calmed, .lingering, .closed: true
        }
    }

    /// Whether shedding this connection would free a place now.
    var isSheddable: Bool { holdsPlace && !hasSentGoAway }

    var isHandshaking: Bool { phase == .handshaking }
}
