@testable import KindredRPC

/// The connection's state machine fed the same input as events, two bytes each (the event, then its
/// argument): whatever the order, a connection is torn down and gives up its place at most once, answers
/// nothing once torn down, and never asks to close after it has.
func fuzzConnectionState(_ input: UnsafeRawBufferPointer) {
    let limits = ConnectionState.Limits(
        handshakeTimeout: .seconds(5), idleTimeout: .seconds(300), keepaliveInterval: .seconds(120),
        keepaliveTimeout: .seconds(20), maxConnectionAgeGrace: .seconds(30), maxFramesWithoutProgress: 8,
        frameFloodWindow: .seconds(10))
    let first = input.first ?? 0
    var state = ConnectionState(
        limits: limits, holdsPlace: first & 1 == 0, retiresAt: first & 2 == 0 ? nil : 60_000_000_000, now: 0)
    var now: UInt64 = 0
    var tornDown = false
    var placesReleased = 0
    var index = 1
    while index + 1 < input.count {
        let (event, argument) = (input[index], input[index + 1])
        index += 2
        now &+= UInt64(argument) * 1_000_000_000
        let actions: [ConnectionState.Action]
        switch event % 15 {
        case 0: actions = state.accepted()
        case 1: actions = state.handshakeCompleted()
        case 2: actions = state.handshakeDeadlinePassed(clientBytesWaiting: argument & 1 == 1)
        case 3: actions = state.tick(now: now, callsOpen: argument & 1 == 1)
        case 4: actions = state.finalGoAwayDue()
        case 5: actions = state.goAway()
        case 6: actions = state.shed()
        case 7: actions = state.graceOver()
        case 8: actions = state.sessionFinished()
        case 9: actions = state.closed()
        case 10:
            state.frameReceived(now: now)
            state.pingAcknowledged()
            actions = []
        case 11:
            state.callsEnded(now: now)
            state.dataFrameSent()
            actions = []
        case 12:
            // Lengths up to 960, so that a SETTINGS frame of too many entries comes up too.
            let header = ConnectionState.FrameHeader(
                type: argument % 12, flags: argument >> 4, length: Int(argument >> 4) * 64)
            let flood = state.frameBegins(header, now: now)
            precondition(!(flood && tornDown), "a closed connection was calmed")
            actions = []
        case 13:
            actions = state.dataForAStreamThatIsGone(now: now) ? [.goAway(.enhanceYourCalm)] : []
        default:
            let flood = state.libraryFlooded(now: now)
            precondition(!(flood && tornDown), "a closed connection was calmed")
            actions = flood ? [.goAway(.enhanceYourCalm)] : []
        }
        precondition(!tornDown || actions.isEmpty, "a torn-down connection answered \(actions)")
        for action in actions {
            switch action {
            case .tearDown:
                tornDown = true
            case .releasePlace:
                placesReleased += 1
            default:
                break
            }
        }
        precondition(placesReleased <= 1, "a place was given up twice")
        precondition(tornDown == state.isClosed, "torn down and closed disagree")
    }
}
