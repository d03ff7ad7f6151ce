import LoadTestKit

/// One kind of stream the users hold (WatchMessages, WatchProfileActivity): who has one settled, and the
/// deliveries of the run's writes on it.
struct LiveStream: Sendable {
    let name: String
    let deliveries = Deliveries()
    let board: StreamBoard
    /// Where an early end of one of these streams is recorded.
    let endedLabel: String
    /// Where an end by a draining server (a rolling restart) is recorded: an expected end, not a failure, since
    /// the stream resumes from its cursor on another replica.
    let handedOverLabel: String

    init(name: String, users: Int) {
        self.name = name
        endedLabel = name + " (stream ended)"
        handedOverLabel = name + " (stream handed over by a drain)"
        board = StreamBoard(users: users)
    }

    /// Of `users`, those whose stream is settled now.
    func settled(_ users: some Sequence<Int>) -> Set<Int> {
        Set(users.filter(board.isSettled))
    }
}
