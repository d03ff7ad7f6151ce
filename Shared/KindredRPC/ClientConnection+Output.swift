#if canImport(Glibc)
    import Glibc
#endif
internal import CLinuxSystem

extension ClientConnection {
    /// Writes what nghttp2 has queued; on a short write keeps the rest and waits for EPOLLOUT.
    func flush() {
        guard state == .ready else { return }
        if pendingOffset < pending.count && !writePending() { return }
        let output: [UInt8]
        do { output = try session.pendingOutput() } catch { return close() }
        if !output.isEmpty {
            pending = output
            pendingOffset = 0
            guard writePending() else { return }
        }
        if !session.isAlive { close() }
    }

    /// Writes the held bytes; true once all are written.
    private func writePending() -> Bool {
        while pendingOffset < pending.count {
            // MSG_NOSIGNAL: a peer that went away must close this connection, not raise SIGPIPE.
            let written = pending.withUnsafeBytes {
                send(fd, $0.baseAddress! + pendingOffset, $0.count - pendingOffset, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                pendingOffset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else if written < 0 && errno == EAGAIN {
                if !watchingWritable { loop.modify(fd: fd, events: EPOLLIN.rawValue | EPOLLOUT.rawValue) }
                watchingWritable = true
                return false
            } else {
                close()
                return false
            }
        }
        pending = []
        pendingOffset = 0
        if watchingWritable { loop.modify(fd: fd, events: EPOLLIN.rawValue) }
        watchingWritable = false
        return true
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
