/// A connection's share of its event loop: each loop turn reads at most `Limits.readBudget` bytes of it, so one
/// connection pouring frames cannot hold the loop for a whole read buffer while the loop's other connections
/// wait. What is left waits for the next turn: on the socket, where the loop's level-triggered epoll reports it
/// again, or (TLS) already decrypted in the session, where epoll cannot see it, so the loop queues the
/// connection behind the next turn's readiness events.
extension ConnectionState {
    /// What a connection does after a read of its turn.
    enum ReadStep: Equatable, Sendable {
        /// Read now, at most this many bytes.
        case read(upTo: Int)
        /// The turn is over; the socket's readiness brings the connection back when it has more.
        case yield
        /// The turn's budget is spent while the TLS session holds input epoll does not know of: read it at the
        /// back of the loop's next turn.
        case readNextTurn
    }

    /// The loop reports the socket readable, or reaches a connection it queued (`ReadStep.readNextTurn`).
    mutating func readTurnBegins() -> ReadStep {
        readLeftInTurn = limits.readBudget
        return .read(upTo: readLeftInTurn)
    }

    /// A read of the turn returned `count` (0 at the peer's close, -1 when nothing was ready or the socket
    /// failed); `moreBuffered` when the TLS session still holds input it already took from the socket.
    mutating func read(_ count: Int, moreBuffered: Bool) -> ReadStep {
        guard count > 0, !isClosed, moreBuffered else { return .yield }
        readLeftInTurn -= min(count, readLeftInTurn)
        return readLeftInTurn > 0 ? .read(upTo: readLeftInTurn) : .readNextTurn
    }
}
