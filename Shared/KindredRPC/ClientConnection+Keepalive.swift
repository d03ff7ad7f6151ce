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
        if let pingSentAt {
            guard lastReceived >= pingSentAt else { return close() }
            self.pingSentAt = nil
        }
        let silence = ContinuousClock.now - lastReceived
        guard !session.streams.isEmpty, silence >= keepaliveInterval else {
            return scheduleKeepalive(after: max(keepaliveInterval - silence, .milliseconds(1)))
        }
        session.ping()
        pingSentAt = ContinuousClock.now
        loop.markDirty(self)
        scheduleKeepalive(after: keepaliveTimeout)
    }
}
