#if canImport(Glibc)
import Glibc
#endif
internal import CLinuxSystem

extension ClientConnection {
    /// Writes what nghttp2 has queued, gathered in the loop's write buffer; on a short write holds the rest
    /// (and whatever nghttp2 still hands over) and waits for EPOLLOUT.
    func flush() {
        guard state == .ready, held.isEmpty || write(held.retry(fd: fd, tls: tls, loop: loop)) else { return }
        var allSent = true
        do {
            try session.sendPending(gatheringIn: loop.writeBuffer) { bytes, count in
                allSent = write(held.write(bytes, count, fd: fd, tls: tls, loop: loop)) && allSent
                return state != .closed
            }
        } catch {
            return close()
        }
        if allSent && state != .closed && !session.isAlive { close() }
    }

    /// True when everything went out; closes the connection if the socket broke.
    private func write(_ outcome: SocketWrite) -> Bool {
        switch outcome {
        case .complete: return true
        case .refused: return false
        case .failed:
            close()
            return false
        }
    }

    /// Sends GOAWAY; the connection closes once its open streams finish.
    func shutdown() {
        guard state != .closed else { return }
        if state == .connecting || session.streams.isEmpty { return close() }
        session.goAway()
        loop.markDirty(self)
    }

    /// Closes the socket and ends every call on it: waiting ones as not connected, open ones as lost.
    func close() {
        guard state != .closed else { return }
        state = .closed
        cancelConnectTimer()
        if let keepaliveTimer { loop.cancel(keepaliveTimer) }
        keepaliveTimer = nil
        loop.unregister(fd: fd)
        Glibc.close(fd)
        loop.detach(self)
        let calls = waiting
        waiting = []
        for call in calls { call.handle(.closed(.notConnected)) }
        session.failAllStreams()
        onClose?(everConnected)
        onClose = nil
    }
}
