/// Who gets a connection's place: a deadline for the handshake (`ConnectionState.handshakeDeadlinePassed`),
/// and shedding at the connection limit, so that sockets that never speak cannot lock out the clients that do.
extension EventLoop {
    /// Frees one place under `maxConnections` on this loop: the oldest connection still waiting for its
    /// handshake is closed; failing that, the connection idle longest gets a GOAWAY and gives up its place.
    /// False when every connection here has a call open.
    func shedOneConnection() -> Bool {
        while handshakeQueueHead < handshakeQueue.count {
            let oldest = handshakeQueue[handshakeQueueHead]
            handshakeQueueHead += 1
            guard oldest.state.isSheddable, oldest.state.isHandshaking else { continue }
            oldest.core.logger.debug(
                "shedding a connection that has not finished its handshake",
                metadata: ["peer": "\(oldest.peer)"])
            oldest.perform(oldest.state.shed())
            return true
        }
        let idle = liveConnections.filter { $0.state.isSheddable && $0.calls.isEmpty }
        guard let longest = idle.min(by: { $0.state.idleSince < $1.state.idleSince }) else { return false }
        longest.core.logger.debug(
            "shedding the connection idle longest", metadata: ["peer": "\(longest.peer)"])
        longest.perform(longest.state.shed())
        return true
    }

    /// Drops the candidates that finished their handshake or closed; the maintenance tick calls it.
    func pruneHandshakeQueue() {
        handshakeQueue = handshakeQueue[handshakeQueueHead...].filter { $0.state.isHandshaking }
        handshakeQueueHead = 0
    }
}
