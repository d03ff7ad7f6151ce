/// Who gets a connection's place: a deadline for the handshake, and shedding at the connection limit, so
/// that sockets that never speak cannot lock out the clients that do.
extension Connection {
    /// Starts the handshake deadline; the connection closes unless the client's SETTINGS arrive in time.
    func startHandshakeDeadline() {
        handshakeTimer = loop.schedule(after: core.configuration.handshakeTimeout) { [weak self] in
            guard let self else { return }
            handshakeTimer = nil
            core.logger.debug(
                "closing a connection that did not finish its handshake", metadata: ["peer": "\(peer)"])
            close()
        }
    }

    func handshakeCompleted() {
        handshaken = true
        if let handshakeTimer { loop.cancel(handshakeTimer) }
        handshakeTimer = nil
    }

    /// Whether shedding this connection would free a place now.
    var isSheddable: Bool { counted && !closed && !goingAway }
}

extension EventLoop {
    /// Frees one place under `maxConnections` on this loop: the oldest connection still waiting for its
    /// handshake is closed; failing that, the connection idle longest gets a GOAWAY and gives up its place.
    /// False when every connection here has a call open.
    func shedOneConnection() -> Bool {
        while handshakeQueueHead < handshakeQueue.count {
            let oldest = handshakeQueue[handshakeQueueHead]
            handshakeQueueHead += 1
            guard oldest.isSheddable, !oldest.handshaken else { continue }
            oldest.core.logger.debug(
                "shedding a connection that has not finished its handshake",
                metadata: ["peer": "\(oldest.peer)"])
            oldest.close()
            return true
        }
        let idle = liveConnections.filter { $0.isSheddable && $0.calls.isEmpty }
        guard let longest = idle.min(by: { $0.idleSince < $1.idleSince }) else { return false }
        longest.core.logger.debug(
            "shedding the connection idle longest", metadata: ["peer": "\(longest.peer)"])
        longest.goAway()
        longest.releasePlace()
        return true
    }

    /// Remembers a new connection as a shedding candidate until its handshake completes.
    func awaitHandshake(_ connection: Connection) {
        connection.startHandshakeDeadline()
        handshakeQueue.append(connection)
    }

    /// Drops the candidates that finished their handshake or closed; the maintenance tick calls it.
    func pruneHandshakeQueue() {
        handshakeQueue = handshakeQueue[handshakeQueueHead...].filter { !$0.handshaken && !$0.closed }
        handshakeQueueHead = 0
    }
}
