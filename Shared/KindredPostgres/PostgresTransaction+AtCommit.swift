internal import Synchronization

/// What a transaction leaves for its commit: statements sent with the COMMIT in its round trip, and
/// recipients announced once it succeeded.
extension PostgresTransaction {
    /// Wakes `recipients`' streams on `channel`, in every instance, once this transaction has committed — not
    /// from inside it, where `pg_notify` would serialize every notifying commit through its WAL flush with its
    /// row locks held (`RecipientAnnouncer`). Nothing is announced if it rolls back.
    public func announceAfterCommit(_ recipients: some Sequence<String>, on channel: String) {
        atCommit.announcements.withLock { $0[channel, default: []].formUnion(recipients) }
    }

    /// Sends `query` with the COMMIT, in its round trip, instead of now: for a write whose answer nothing in the
    /// transaction needs and that nothing in it reads back (an event appended to an outbox). Statements so
    /// deferred run in the order deferred, after every statement run directly. If one fails, the transaction
    /// rolls back and the commit throws its error (a conflict among them is retried like any other).
    public func queryAtCommit(_ query: PostgresQuery) {
        atCommit.statements.withLock { $0.append(DeferredStatement(query: query, answer: nil)) }
    }

    /// Defers `query` to the commit like `queryAtCommit(_:)`, and hands its rows to `answered` once the
    /// transaction has committed, before its announcements go out: for a write whose answer only says what to
    /// do after the commit (which recipients to wake). `answered` is not called if the transaction rolls back.
    public func queryAtCommit(
        _ query: PostgresQuery, answered: @escaping @Sendable (PostgresRows) -> Void
    ) {
        let answer = DeferredAnswer(answered)
        atCommit.statements.withLock { $0.append(DeferredStatement(query: query, answer: answer)) }
        atCommit.answers.withLock { $0.append(answer) }
    }

    /// The statements deferred to the commit, handed over once.
    func takeStatementsAtCommit() -> [DeferredStatement] {
        atCommit.statements.withLock { statements in
            defer { statements.removeAll() }
            return statements
        }
    }

    /// Hands the deferred statements' rows to their readers, then what the transaction announces to the pool's
    /// announcers; called once, after COMMIT succeeded.
    func committed() {
        for answer in atCommit.answers.withLock({ $0 }) { answer.deliver() }
        for (channel, recipients) in atCommit.announcements.withLock({ $0 }) {
            pool.announcer(on: channel).announce(recipients)
        }
    }

    /// Lets go of what the transaction left for its commit, once it ended either way. A reader usually holds
    /// this handle (to announce in it), and the handle holds the reader: kept, the two held each other, the
    /// transaction and the rows for good (2–4 KB a write with an audience: kindred-family grew by 60 MB a
    /// minute at 2,000 calls/s).
    func ended() {
        atCommit.statements.withLock { $0.removeAll() }
        atCommit.answers.withLock { $0.removeAll() }
        atCommit.announcements.withLock { $0.removeAll() }
    }
}

/// A statement deferred to the commit, and where its rows go when someone reads them.
struct DeferredStatement: Sendable {
    let query: PostgresQuery
    let answer: DeferredAnswer?
}

/// The rows of a statement deferred to the commit, kept until the commit succeeded.
final class DeferredAnswer: Sendable {
    private let rows = Mutex<PostgresRows?>(nil)
    private let answered: @Sendable (PostgresRows) -> Void

    init(_ answered: @escaping @Sendable (PostgresRows) -> Void) {
        self.answered = answered
    }

    func keep(_ rows: PostgresRows) {
        self.rows.withLock { $0 = rows }
    }

    /// The rows kept; nil until the statement answered.
    var kept: PostgresRows? { rows.withLock { $0 } }

    /// Calls the reader with the rows kept (none kept: the statement never answered, so nothing to read).
    func deliver() {
        if let rows = kept { answered(rows) }
    }
}

/// What one transaction leaves for its commit, shared by the copies of its handle.
final class AtCommit: Sendable {
    let statements = Mutex<[DeferredStatement]>([])
    let answers = Mutex<[DeferredAnswer]>([])
    let announcements = Mutex<[String: Set<String>]>([:])
}
