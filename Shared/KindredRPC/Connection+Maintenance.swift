internal import CNGHTTP2
internal import CLinuxSystem

/// Connection housekeeping: idle timeout, keepalive PINGs, GOAWAY for drain and refusal.
extension Connection {
    /// Checks idle time and keepalive; the loop calls this about once a second.
    func maintain(now: UInt64) {
        guard !closed else { return }
        let configuration = core.configuration
        if calls.isEmpty && !goingAway && now &- idleSince > configuration.idleTimeout.nanoseconds {
            core.logger.debug("closing idle connection", metadata: ["peer": "\(peer)"])
            goAway()
        }
        if let retiresAt, now >= retiresAt, !retiring, !goingAway { retireForAge() }
        if let sent = pingSentAt {
            if now &- sent > configuration.keepaliveTimeout.nanoseconds {
                core.logger.debug("keepalive PING unanswered; closing", metadata: ["peer": "\(peer)"])
                close()
            }
        } else if now &- lastReceived > configuration.keepaliveInterval.nanoseconds {
            nghttp2_submit_ping(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nil)
            pingSentAt = now
            markDirty()
        }
    }

    /// Sends GOAWAY naming the last stream taken; calls in flight finish, then the connection closes.
    func goAway() {
        guard !closed, !goingAway else { return }
        goingAway = true
        nghttp2_submit_goaway(
            session, UInt8(NGHTTP2_FLAG_NONE.rawValue),
            nghttp2_session_get_last_proc_stream_id(session), NGHTTP2_NO_ERROR.rawValue, nil, 0)
        markDirty()
    }

    /// Answers a connection over the limit with SETTINGS and a GOAWAY that accepts no stream.
    func refuse() {
        goingAway = true
        let reason = Array("too many connections".utf8)
        nghttp2_submit_goaway(
            session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, NGHTTP2_REFUSED_STREAM.rawValue,
            reason, reason.count)
        markDirty()
    }
}

extension EventLoop {
    /// Takes over an accepted socket. Over the limit (`counted` false), a connection that never finished its
    /// handshake, or else the one idle longest, makes room; only when none can is the newcomer refused.
    func adopt(fd: Int32, peer: String, core: ServerCore, counted: Bool) {
        let admitted = counted || (!draining && shedOneConnection() && core.reserveConnection())
        // A TLS listener's newcomers take the credentials current now; a reload changes only later ones.
        let tls = core.tls.flatMap { try? TLSStream(context: $0.context, fd: fd) }
        let connection = Connection(fd: fd, loop: self, core: core, peer: peer, tls: tls, counted: admitted)
        add(connection)
        guard !draining, connection.session != nil, (tls == nil) == (core.tls == nil) else {
            return connection.close()
        }
        do {
            try register(fd: fd, token: UInt64(fd), events: EPOLLIN.rawValue)
        } catch {
            return connection.close()
        }
        if admitted { awaitHandshake(connection) } else { connection.refuse() }
        markDirty(connection)
    }

    /// Runs connection housekeeping every second while the loop lives.
    func startMaintenance() {
        schedule(after: .seconds(1)) { [unowned self] in
            for connection in liveConnections { connection.maintain(now: now) }
            pruneHandshakeQueue()
            trimMemoryAfterBurst()
            startMaintenance()
        }
    }

    /// Gives the memory of many closed connections back to the system. glibc keeps what they freed in its
    /// arenas: 5 rounds of 5,000 idle connections left the process at 141 MiB instead of 21 (measured; see the
    /// README). A trim walks the heap, so it waits for 1,000 closes and the next maintenance tick (1 s).
    func trimMemoryAfterBurst() {
        guard closedSinceTrim >= 1000 else { return }
        closedSinceTrim = 0
        malloc_trim(0)
    }

    /// Sends GOAWAY on every connection and stops once they are gone or the drain timeout passes; a stream
    /// still open then ends with UNAVAILABLE (`RPCError.serverShuttingDown`) before its connection closes.
    func beginDraining(timeout: Duration) {
        guard !draining else { return }
        draining = true
        for connection in liveConnections { connection.goAway() }
        schedule(after: timeout) { [unowned self] in
            for connection in liveConnections { connection.endStreamsAndClose() }
            stopping = true
        }
        connectionClosed()
    }

    /// Called after a connection closes: a draining loop with none left stops.
    func connectionClosed() {
        if draining && connectionCount == 0 { stopping = true }
    }
}
