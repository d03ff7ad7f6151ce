internal import CLibPQ
internal import DequeModule
internal import KindredThreads

/// One connection owned by one event loop, in non-blocking pipeline mode. The pure reads (declared by
/// `pureRead(_:)`) sent in one loop iteration go out as one pipeline segment with a single sync, flushed
/// at the iteration's end: the server runs the segment as one implicit transaction and answers it with one
/// write, which the loop takes in one wake-up; each caller is resumed when its segment's sync comes back, on
/// the thread its handler prefers. Any other statement gets a segment of its own (see `wordsAllowSharing`),
/// and a segment where something failed is sorted out in `+Segments`. Everything here is touched only on the
/// loop's thread (hence @unchecked Sendable), except `loop`.
final class PostgresLoopConnection: PostgresIOHandler, @unchecked Sendable {
    let loop: any PostgresIOLoop
    private(set) var connection: PostgresConnection?
    private var watchedFD: Int32 = -1
    private var isConnecting = false
    private var isClosed = false
    private var backoff = Backoff.reconnect
    private var failedAttempts = 0
    /// Statements sent and not yet resumed, in wire order; `+Results` keeps the indexes below.
    var inFlight = Deque<InFlight>()
    /// The first statement whose answers are not all read.
    var head = 0
    /// The first statement of the oldest segment whose sync has not been read.
    var segmentStart = 0
    /// How many statements were sent since the last sync.
    private var openSegment = 0
    /// The last statement sent that was not a pure read sharing a segment.
    private var lastWriteSequence: UInt64?
    /// Numbers statements in the order they were sent.
    private(set) var nextSequence: UInt64 = 0
    /// Names whose Parse failed or was skipped, for the copies sent before that was known.
    var lostPrepares: [String: LostPrepare] = [:]
    private var flushPending = false
    private var wantsWrite = false

    /// At most this many statements share one sync (one transaction, and one resend after a failure).
    static let maxSegment = 64

    init(loop: any PostgresIOLoop) { self.loop = loop }

    /// Connected and ready for `send` (loop thread only).
    var isUp: Bool { connection != nil }

    /// True while a statement that is not a pure read (a write, as far as the pool can tell) waits for its
    /// answer here: a statement sent now would be answered after it (loop thread only).
    var hasWriteInFlight: Bool {
        guard let lastWriteSequence, let oldest = inFlight.first else { return false }
        return oldest.sequence <= lastWriteSequence
    }

    /// How a statement goes out, and whether its first answer is final.
    enum Sending {
        /// From any handler on the loop: pure reads share the open segment, anything else goes alone; after a
        /// failed segment a statement may be sent again (`+Segments`).
        case pooled
        /// Alone, after its first segment failed: whatever it gets now is its answer.
        case retry
        /// A step of the explicit transaction that holds this connection: never sent again, since the
        /// transaction, not the segment, decides what commits. `holdSync` keeps the segment open for the next
        /// statement (BEGIN rides with the first statement: if BEGIN fails, that statement is skipped, never
        /// run on its own in autocommit).
        case inTransaction(holdSync: Bool)
    }

    /// Sends `query` and resumes `continuation` (when there is one) on this loop's thread once that statement's
    /// segment's sync has come back.
    func send(
        _ query: PostgresQuery, _ continuation: UnsafeContinuation<PostgresRows, any Error>?,
        as sending: Sending = .pooled
    ) {
        send(query, reply: continuation.map(Reply.caller), as: sending)
    }

    /// Sends `query` and gives its answer to `reply` (when there is one) on this loop's thread once that
    /// statement's segment's sync has come back.
    func send(_ query: PostgresQuery, reply: Reply?, as sending: Sending) {
        loop.assertInLoop()
        guard let connection else {
            reply?.resume(throwing: PostgresError.connectionLost("connection not ready"))
            return
        }
        if let error = query.binds.invalidBindError { return reply?.resume(throwing: error) ?? () }
        let plan = connection.plan(query)
        let (startsAlone, endsAlone, isFinal): (Bool, Bool, Bool) =
            switch sending {
            case .pooled: (!plan.sharesTransaction, !plan.sharesTransaction, false)
            case .retry: (true, true, true)
            case .inTransaction(let holdSync): (false, !holdSync, true)
            }
        guard !startsAlone || endSegment(connection), connection.send(query, as: plan) else {
            // Part of it may have gone out without a sync: the answers would no longer line up.
            connection.isOutOfStep = true
            reply?.resume(throwing: PostgresError.connectionLost(connection.errorMessage))
            return broken()
        }
        if !plan.sharesTransaction { lastWriteSequence = nextSequence }
        inFlight.append(
            InFlight(
                stage: plan.preparing ? .prepare : .result, query: query, plan: plan, sequence: nextSequence,
                isFinal: isFinal, reply: reply))
        nextSequence += 1
        openSegment += 1
        if endsAlone || openSegment >= Self.maxSegment, !endSegment(connection) { return broken() }
        if !flushPending {
            flushPending = true
            loop.flushSoon(fd: watchedFD)
        }
    }

    /// Ends the open segment with its sync; false if libpq could not queue it.
    private func endSegment(_ connection: PostgresConnection) -> Bool {
        guard openSegment > 0 else { return true }
        inFlight[inFlight.count - 1].endsSegment = true
        openSegment = 0
        guard connection.sync() else {
            connection.isOutOfStep = true
            return false
        }
        return true
    }

    func flush() {
        loop.assertInLoop()
        flushPending = false
        guard let connection else { return }
        guard endSegment(connection) else { return broken() }
        let status = PQflush(connection.pointer)
        if status < 0 { return broken() }
        let stuck = status == 1
        if stuck != wantsWrite {
            wantsWrite = stuck
            loop.setWritableInterest(fd: watchedFD, stuck)
        }
    }

    func writable() { flush() }

    func readable() {
        loop.assertInLoop()
        guard let connection else { return }
        guard PQconsumeInput(connection.pointer) == 1 else { return broken() }
        while let notify = PQnotifies(connection.pointer) { PQfreemem(notify) }
        readResults(connection)
        if connection.isBroken, connection === self.connection { broken() }
    }

    /// Stops for good: fails what is in flight and disconnects.
    func shutdown() {
        isClosed = true
        disconnect(failing: .closed)
    }

    /// Connects on a short-lived thread (libpq's connect blocks), after a backoff if the last attempt failed;
    /// until then callers on this loop use the pool's connection threads.
    func startConnecting(_ configuration: PostgresConfiguration) {
        guard !isConnecting, !isClosed, connection == nil else { return }
        isConnecting = true
        let delay = failedAttempts == 0 ? nil : backoff.next()
        PostgresWorker.startThread(name: "pg-connect") { [self] in
            if let delay { DetachedThread.sleep(for: delay) }
            let made = NewConnection(try? PostgresConnection(configuration: configuration, nonBlocking: true))
            loop.run { [self] in install(made.connection) }
        }
    }

    private func install(_ made: PostgresConnection?) {
        isConnecting = false
        guard let made, !isClosed else {
            failedAttempts += 1
            return
        }
        do {
            try loop.watch(fd: made.socket, handler: self)
        } catch {
            failedAttempts += 1
            return
        }
        watchedFD = made.socket
        connection = made
        failedAttempts = 0
        backoff.reset()
    }

    func broken() {
        disconnect(failing: .connectionLost(connection?.errorMessage ?? "connection lost"))
    }

    /// Fails every statement not yet resumed: read or not, its segment's sync has not come back.
    private func disconnect(failing error: PostgresError) {
        let pending = inFlight[segmentStart...].compactMap(\.reply)
        inFlight.removeAll()
        (head, segmentStart, openSegment) = (0, 0, 0)
        lostPrepares.removeAll()
        if connection != nil {
            loop.unwatch(fd: watchedFD)
            watchedFD = -1
            wantsWrite = false
            flushPending = false
            connection = nil
        }
        pending.forEach { $0.resume(throwing: error) }
    }
}

/// Carries a connection made on a helper thread to its loop; nothing else touches it in between.
private struct NewConnection: @unchecked Sendable {
    let connection: PostgresConnection?
    init(_ connection: PostgresConnection?) { self.connection = connection }
}
