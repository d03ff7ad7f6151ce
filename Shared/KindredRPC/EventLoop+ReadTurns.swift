/// Connections whose turn's read budget ran out while their TLS session still held decrypted input
/// (`ConnectionState.ReadStep.readNextTurn`): no epoll event will report it, so the loop reads them again at
/// the back of its next turn, after that turn's readiness events, as if epoll had.
extension EventLoop {
    /// Queues `connection` to read in the next turn (once, however often it asks).
    func readNextTurn(_ connection: Connection) {
        assertInLoop()
        guard !connection.readDue else { return }
        connection.readDue = true
        readsDue.append(connection)
    }

    /// Reads each queued connection once; one that epoll already reported this turn has had its share and
    /// stays queued for the next.
    func readDueConnections() {
        guard !readsDue.isEmpty else { return }
        let due = readsDue
        readsDue.removeAll(keepingCapacity: true)
        for connection in due {
            if connection.lastReadTurn == turn {
                readsDue.append(connection)
                continue
            }
            connection.readDue = false
            if !connection.closed { connection.readable() }
        }
    }
}
