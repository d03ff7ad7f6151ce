/// The lifecycle events of a connection, each answering the actions `Connection` carries out in order.
extension ConnectionState {
    /// The acceptor took the connection: with a place, its handshake deadline starts; without one (every
    /// connection on the loop has a call open), it is refused.
    mutating func accepted() -> [Action] {
        guard phase == .handshaking else { return [] }
        if holdsPlace { return [.arm(.handshakeDeadline, after: limits.handshakeTimeout)] }
        phase = .goingAway
        return [.goAway(.refusal)]
    }

    /// The client's first SETTINGS arrived: the handshake is done.
    mutating func handshakeCompleted() -> [Action] {
        guard phase == .handshaking else { return [] }
        phase = .open
        return [.cancel(.handshakeDeadline)]
    }

    /// The handshake deadline passed. It is for a client that does not speak, not for a loop that has not
    /// listened: bytes waiting unread in the socket mean the client answered and this loop is behind (a burst
    /// of TLS handshakes puts more sockets in one epoll wake-up than a pass reads), so the deadline starts
    /// again instead. A silent socket has nothing waiting, and a client that trickles bytes has them read at
    /// once on a loop that keeps up, so neither gains more time.
    mutating func handshakeDeadlinePassed(clientBytesWaiting: Bool) -> [Action] {
        guard phase == .handshaking else { return [] }
        if clientBytesWaiting { return [.arm(.handshakeDeadline, after: limits.handshakeTimeout)] }
        return [.close]
    }

    /// A frame arrived (any frame: keepalive counts every one as a sign of life).
    mutating func frameReceived(now: UInt64) {
        lastReceived = now
    }

    /// The client acknowledged a PING; the keepalive's, if one is out.
    mutating func pingAcknowledged() {
        pingSentAt = nil
    }

    /// The last call on the connection ended.
    mutating func callsEnded(now: UInt64) {
        idleSince = now
    }

    /// The loop's maintenance tick (about once a second): close after an unanswered keepalive PING; else a
    /// GOAWAY after `idleTimeout` without a call, or the age's notice; else a keepalive PING after
    /// `keepaliveInterval` of silence.
    mutating func tick(now: UInt64, callsOpen: Bool) -> [Action] {
        guard phase != .closed else { return [] }
        if let sent = pingSentAt, now &- sent > limits.keepaliveTimeout.nanoseconds { return [.close] }
        if !callsOpen && !hasSentGoAway && now &- idleSince > limits.idleTimeout.nanoseconds {
            return goAway()
        }
        if let retiresAt, now >= retiresAt, phase == .handshaking || phase == .open {
            phase = .retiring
            return [.goAway(.notice), .arm(.finalGoAway, after: ConnectionState.shutdownNoticeLead)]
        }
        if pingSentAt == nil && now &- lastReceived > limits.keepaliveInterval.nanoseconds {
            pingSentAt = now
            flood.keepaliveAcknowledged = false
            return [.sendPing]
        }
        return []
    }

    /// The age's notice has had time to arrive: the final GOAWAY, then the grace for the calls in flight.
    mutating func finalGoAwayDue() -> [Action] {
        guard phase == .retiring else { return [] }
        phase = .goingAway
        return [.goAway(.lastStreamTaken), .arm(.grace, after: limits.maxConnectionAgeGrace)]
    }

    /// A GOAWAY naming the last stream taken (idle, drain); calls in flight finish.
    mutating func goAway() -> [Action] {
        guard !hasSentGoAway else { return [] }
        phase = .goingAway
        return [.goAway(.lastStreamTaken)]
    }

    /// Over the connection limit, this connection (idle, or never finished its handshake) makes room.
    mutating func shed() -> [Action] {
        guard isSheddable else { return [] }
        if phase == .handshaking { return [.close] }
        return goAway() + releasePlace()
    }

    /// The grace of an age or a drain is over: what is left ends.
    mutating func graceOver() -> [Action] {
        guard phase != .closed else { return [] }
        return [.endStreams, .close]
    }

    /// nghttp2 wants neither to read nor to write (everything is written, a GOAWAY last): a flooding peer is
    /// closed at once (it may lose the GOAWAY to the RST its unread frames cause), any other lingers.
    mutating func sessionFinished() -> [Action] {
        switch phase {
        case .calmed: return [.close]
        case .lingering, .closed: return []
        default:
            phase = .lingering
            return [.halfClose, .arm(.linger, after: limits.linger)]
        }
    }

    /// Gives up the connection's place under `maxConnections` (it is on its way out).
    mutating func releasePlace() -> [Action] {
        guard holdsPlace else { return [] }
        holdsPlace = false
        return [.releasePlace]
    }

    /// The connection ends (the peer left, the socket failed, or an event above answered `.close`): the one
    /// place the phase becomes `closed`.
    mutating func closed() -> [Action] {
        guard phase != .closed else { return [] }
        let wasHandshaking = phase == .handshaking
        phase = .closed
        return (wasHandshaking ? [.cancel(.handshakeDeadline)] : []) + [.tearDown] + releasePlace()
    }
}
