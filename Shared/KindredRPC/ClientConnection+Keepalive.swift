/// Keepalive: a peer that vanished without closing the socket (a node lost, a cable pulled) would
/// otherwise hold its calls until their deadlines and take new ones. While calls are open and the
/// peer has been silent for `keepaliveInterval`, a PING goes out; no answer within
/// `keepaliveTimeout` closes the connection.
extension ClientConnection {
    func scheduleKeepalive(after delay: Duration) {
        keepaliveTimer = loop.schedule(after: delay) { [unowned self] in
            keepaliveTimer = nil
            checkAlive()
        }
    }

    private func checkAlive() {
        guard state == .ready else { return }
        let answered = pingSentAt.map { lastReceived >= $0 }
        pingSentAt = nil
        let step = Self.keepaliveStep(
            streamsOpen: !session.streams.isEmpty, silence: ContinuousClock.now - lastReceived,
            interval: keepaliveInterval, pingAnswered: answered)
        switch step {
        case .close:
            close()
        case .check(let delay):
            scheduleKeepalive(after: delay)
        case .ping:
            session.ping()
            pingSentAt = ContinuousClock.now
            loop.markDirty(self)
            scheduleKeepalive(after: keepaliveTimeout)
        }
    }

    enum KeepaliveStep: Equatable {
        case close
        case ping
        case check(after: Duration)
    }

    /// What a keepalive check does: `pingAnswered` is nil when no PING was outstanding. A connection with no
    /// call open has nothing to protect, so it is looked at again an interval later (it once re-checked every
    /// millisecond once its silence passed the interval: ~1,000 wake-ups a second on an idle peer connection).
    static func keepaliveStep(streamsOpen: Bool, silence: Duration, interval: Duration, pingAnswered: Bool?)
        -> KeepaliveStep
    {
        if pingAnswered == false { return .close }
        guard streamsOpen else { return .check(after: interval) }
        guard silence >= interval else { return .check(after: interval - silence) }
        return .ping
    }
}
