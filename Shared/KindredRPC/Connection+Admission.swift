#if canImport(Glibc)
import Glibc
#endif

/// Who gets a connection's place: a deadline for the handshake, and shedding at the connection limit, so
/// that sockets that never speak cannot lock out the clients that do.
extension Connection {
    /// Starts the handshake deadline; the connection closes unless the client's SETTINGS arrive in time.
    func startHandshakeDeadline() {
        handshakeTimer = loop.schedule(after: core.configuration.handshakeTimeout) { [weak self] in
            self?.handshakeDeadlinePassed()
        }
    }

    /// The deadline is for a client that does not speak, not for a loop that has not listened: bytes waiting
    /// unread in the socket mean the client answered and this loop is behind (a burst of TLS handshakes puts
    /// more sockets in one epoll wake-up than a pass reads), so the deadline starts again instead. A silent
    /// socket has nothing waiting, and a client that trickles bytes has them read at once on a loop that keeps
    /// up, so neither gains more time.
    private func handshakeDeadlinePassed() {
        handshakeTimer = nil
        var byte: UInt8 = 0
        if recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0 {
            core.logger.debug(
                "the handshake deadline passed with the client's bytes unread; the loop is behind, waiting again",
                metadata: ["peer": "\(peer)"])
            return startHandshakeDeadline()
        }
        core.logger.debug(
            "closing a connection that did not finish its handshake", metadata: ["peer": "\(peer)"])
        close()
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
