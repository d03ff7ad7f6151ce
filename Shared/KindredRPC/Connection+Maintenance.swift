internal import CLinuxSystem

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
        if admitted { handshakeQueue.append(connection) }
        connection.perform(connection.state.accepted())
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
        for connection in liveConnections { connection.perform(connection.state.goAway()) }
        schedule(after: timeout) { [unowned self] in
            for connection in liveConnections { connection.perform(connection.state.graceOver()) }
            stopping = true
        }
        connectionClosed()
    }

    /// Called after a connection closes: a draining loop with none left stops.
    func connectionClosed() {
        if draining && connectionCount == 0 { stopping = true }
    }
}
