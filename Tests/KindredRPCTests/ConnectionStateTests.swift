import Testing
@testable import KindredRPC

/// The connection's lifecycle without sockets or sleeps: each case feeds `ConnectionState` a sequence of
/// events at injected times and checks the actions each answers.
@Suite struct ConnectionStateTests {
    typealias Action = ConnectionState.Action
    static let second: UInt64 = 1_000_000_000

    static let limits = ConnectionState.Limits(
        handshakeTimeout: .seconds(5), idleTimeout: .seconds(300), keepaliveInterval: .seconds(120),
        keepaliveTimeout: .seconds(20), maxConnectionAgeGrace: .seconds(30), maxFramesWithoutProgress: 3,
        frameFloodWindow: .seconds(10))

    /// One event, at `second` seconds of the loop's clock where it takes a time, and the actions expected.
    enum Step: Sendable {
        case accepted([Action])
        case handshakeCompleted([Action])
        case deadline(clientBytesWaiting: Bool, [Action])
        case received(second: UInt64)
        case pingAcknowledged
        case callsEnded(second: UInt64)
        case tick(second: UInt64, callsOpen: Bool, [Action])
        case finalGoAwayDue([Action])
        case goAway([Action])
        case shed([Action])
        case graceOver([Action])
        case sessionFinished([Action])
        case closed([Action])
        case phase(ConnectionState.Phase)
    }

    static let sequences: [(String, [Step])] = [
        (
            "a client that answers in time is served; its deadline is cancelled",
            [
                .accepted([.arm(.handshakeDeadline, after: .seconds(5))]), .phase(.handshaking),
                .handshakeCompleted([.cancel(.handshakeDeadline)]), .phase(.open),
                .deadline(clientBytesWaiting: false, []), .handshakeCompleted([]),
            ]
        ),
        (
            "a silent client is closed at the deadline and gives up its place",
            [
                .accepted([.arm(.handshakeDeadline, after: .seconds(5))]),
                .deadline(clientBytesWaiting: false, [.close]),
                .closed([.cancel(.handshakeDeadline), .tearDown, .releasePlace]), .phase(.closed),
                .closed([]),
            ]
        ),
        (
            "a client whose bytes wait unread on a loop that is behind gets the deadline again",
            [
                .accepted([.arm(.handshakeDeadline, after: .seconds(5))]),
                .deadline(clientBytesWaiting: true, [.arm(.handshakeDeadline, after: .seconds(5))]),
                .deadline(clientBytesWaiting: true, [.arm(.handshakeDeadline, after: .seconds(5))]),
                .handshakeCompleted([.cancel(.handshakeDeadline)]), .phase(.open),
            ]
        ),
        (
            "keepalive: a PING after two minutes of silence, closed when it stays unanswered 20 s",
            [
                .handshakeCompleted([.cancel(.handshakeDeadline)]), .received(second: 10),
                .tick(second: 120, callsOpen: true, []), .tick(second: 131, callsOpen: true, [.sendPing]),
                .tick(second: 140, callsOpen: true, []), .tick(second: 152, callsOpen: true, [.close]),
            ]
        ),
        (
            "keepalive: an answered PING starts the silence again",
            [
                .handshakeCompleted([.cancel(.handshakeDeadline)]),
                .tick(second: 121, callsOpen: true, [.sendPing]), .received(second: 122), .pingAcknowledged,
                .tick(second: 200, callsOpen: true, []), .tick(second: 243, callsOpen: true, [.sendPing]),
            ]
        ),
        (
            "an idle connection gets a GOAWAY after five minutes without a call, then lingers",
            [
                .handshakeCompleted([.cancel(.handshakeDeadline)]), .received(second: 290),
                .callsEnded(second: 10), .tick(second: 309, callsOpen: true, []),
                .tick(second: 311, callsOpen: false, [.goAway(.lastStreamTaken)]), .phase(.goingAway),
                .tick(second: 312, callsOpen: false, []),
                .sessionFinished([.halfClose, .arm(.linger, after: .seconds(2))]), .phase(.lingering),
                .sessionFinished([]), .closed([.tearDown, .releasePlace]),
            ]
        ),
        (
            "drain: one GOAWAY, then the grace ends the streams left and closes",
            [
                .handshakeCompleted([.cancel(.handshakeDeadline)]), .goAway([.goAway(.lastStreamTaken)]),
                .goAway([]), .shed([]), .graceOver([.endStreams, .close]),
                .closed([.tearDown, .releasePlace]), .graceOver([]),
            ]
        ),
        (
            "shedding an idle connection: GOAWAY and its place at once; a handshaking one is closed",
            [
                .handshakeCompleted([.cancel(.handshakeDeadline)]),
                .shed([.goAway(.lastStreamTaken), .releasePlace]), .shed([]),
                .closed([.tearDown]),
            ]
        ),
        (
            "shedding a connection still in its handshake closes it",
            [.accepted([.arm(.handshakeDeadline, after: .seconds(5))]), .shed([.close])]
        ),
    ]

    @Test(arguments: sequences)
    func sequence(_ name: String, _ steps: [Step]) {
        var state = ConnectionState(limits: Self.limits, holdsPlace: true, retiresAt: nil, now: 0)
        run(steps, on: &state)
    }

    @Test func refusedConnectionGetsAGoAwayAndNoDeadline() {
        var state = ConnectionState(limits: Self.limits, holdsPlace: false, retiresAt: nil, now: 0)
        run(
            [.accepted([.goAway(.refusal)]), .phase(.goingAway), .shed([]), .closed([.tearDown])], on: &state)
    }

    @Test func maximumAgeSendsTheNoticeThenTheFinalGoAwayThenTheGrace() {
        var state = ConnectionState(
            limits: Self.limits, holdsPlace: true, retiresAt: 60 * Self.second, now: 0)
        run(
            [
                .handshakeCompleted([.cancel(.handshakeDeadline)]), .received(second: 59),
                .tick(second: 59, callsOpen: true, []),
                .tick(
                    second: 60, callsOpen: true, [.goAway(.notice), .arm(.finalGoAway, after: .seconds(1))]),
                .phase(.retiring), .tick(second: 61, callsOpen: true, []),
                .finalGoAwayDue([.goAway(.lastStreamTaken), .arm(.grace, after: .seconds(30))]),
                .phase(.goingAway), .finalGoAwayDue([]), .graceOver([.endStreams, .close]),
            ], on: &state)
    }

    @Test func drainDuringTheAgeNoticeEndsTheRetirement() {
        var state = ConnectionState(limits: Self.limits, holdsPlace: true, retiresAt: 0, now: 0)
        run(
            [
                .tick(
                    second: 1, callsOpen: true, [.goAway(.notice), .arm(.finalGoAway, after: .seconds(1))]),
                .goAway([.goAway(.lastStreamTaken)]), .finalGoAwayDue([]),
            ], on: &state)
    }

    private func run(_ steps: [Step], on state: inout ConnectionState) {
        for (index, step) in steps.enumerated() {
            let context = Comment(rawValue: "step \(index + 1): \(step)")
            let actual: [Action]
            let expected: [Action]
            switch step {
            case .accepted(let want): (actual, expected) = (state.accepted(), want)
            case .handshakeCompleted(let want): (actual, expected) = (state.handshakeCompleted(), want)
            case .deadline(let waiting, let want):
                (actual, expected) = (state.handshakeDeadlinePassed(clientBytesWaiting: waiting), want)
            case .received(let at):
                state.frameReceived(now: at * Self.second)
                continue
            case .pingAcknowledged:
                state.pingAcknowledged()
                continue
            case .callsEnded(let at):
                state.callsEnded(now: at * Self.second)
                continue
            case .tick(let at, let open, let want):
                (actual, expected) = (state.tick(now: at * Self.second, callsOpen: open), want)
            case .finalGoAwayDue(let want): (actual, expected) = (state.finalGoAwayDue(), want)
            case .goAway(let want): (actual, expected) = (state.goAway(), want)
            case .shed(let want): (actual, expected) = (state.shed(), want)
            case .graceOver(let want): (actual, expected) = (state.graceOver(), want)
            case .sessionFinished(let want): (actual, expected) = (state.sessionFinished(), want)
            case .closed(let want): (actual, expected) = (state.closed(), want)
            case .phase(let want):
                #expect(state.phase == want, context)
                continue
            }
            #expect(actual == expected, context)
        }
    }
}
