internal import CLibPQ

/// One connection owned by one event loop. Statements are sent without blocking, in pipeline mode, each with
/// its own sync, and flushed once at the end of the loop's iteration; answers are read when the loop reports
/// the socket readable, and each caller is resumed right there, on the thread its handler prefers.
/// Everything here is touched only on the loop's thread (hence @unchecked Sendable), except `loop`.
final class PostgresLoopConnection: PostgresIOHandler, @unchecked Sendable {
    let loop: any PostgresIOLoop
    private var connection: PostgresConnection?
    private var watchedFD: Int32 = -1
    private var isConnecting = false
    private var isClosed = false
    private var backoff = ReconnectBackoff()
    private var failedAttempts = 0
    fileprivate var inFlight: [InFlight] = []
    fileprivate var head = 0
    private var flushPending = false
    private var wantsWrite = false
    /// Statements whose prepare failed, by name: copies already sent under that name report this cause.
    fileprivate var failedPrepares: [String: PostgresError] = [:]

    init(loop: any PostgresIOLoop) { self.loop = loop }

    /// Connected and ready for `send` (loop thread only).
    var isUp: Bool { connection != nil }

    /// Sends `query`; `continuation` is resumed on this loop's thread once its sync has come back.
    func send(_ query: PostgresQuery, _ continuation: CheckedContinuation<PostgresRows, any Error>) {
        guard let connection else {
            continuation.resume(throwing: PostgresError.connectionLost("connection not ready"))
            return
        }
        if let index = query.binds.invalidBind {
            continuation.resume(
                throwing: PostgresError(
                    kind: .invalidBind, message: "bind parameter $\(index) is text holding a NUL byte"))
            return
        }
        // Every statement already known is looked up in `statements`: nothing to track per batch here.
        var preparingNow: [PostgresConnection.StatementKey: String] = [:]
        guard
            case .statement(let name, let key, let preparing) = connection.send(
                query, preparingNow: &preparingNow)
        else {
            // Part of it may have gone out without a sync: the answers would no longer line up.
            connection.isOutOfStep = true
            continuation.resume(throwing: PostgresError.connectionLost(connection.errorMessage))
            broken()
            return
        }
        // Later statements reuse the name at once; libpq keeps them behind this prepare on the wire.
        if preparing { connection.statements[key] = name }
        inFlight.append(
            InFlight(stage: preparing ? .prepare : .result, name: name, key: key, continuation: continuation))
        if !flushPending {
            flushPending = true
            loop.flushSoon(fd: watchedFD)
        }
    }

    func flush() {
        flushPending = false
        guard let connection else { return }
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
        guard let connection else { return }
        guard PQconsumeInput(connection.pointer) == 1 else { return broken() }
        while let notify = PQnotifies(connection.pointer) { PQfreemem(notify) }
        readResults(connection)
        if connection.isBroken { broken() }
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
        PostgresWorker.startThread { [self] in
            if let delay { PostgresWorker.sleep(for: delay) }
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

    private func broken() {
        disconnect(failing: .connectionLost(connection?.errorMessage ?? "connection lost"))
    }

    private func disconnect(failing error: PostgresError) {
        let pending = inFlight[head...].map(\.continuation)
        inFlight.removeAll()
        head = 0
        failedPrepares.removeAll()
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

extension PostgresLoopConnection {
    /// One statement's way through the pipeline: [prepare result, end], result, end, sync.
    struct InFlight {
        enum Stage { case prepare, prepareEnd, result, resultEnd, sync }
        var stage: Stage
        let name: String
        let key: PostgresConnection.StatementKey
        let continuation: CheckedContinuation<PostgresRows, any Error>
        var prepareError: PostgresError?
        var outcome: Result<PostgresRows, PostgresError> = .failure(.connectionLost("no answer"))
    }

    /// Takes every complete answer libpq has buffered, in order, and resumes its caller.
    fileprivate func readResults(_ connection: PostgresConnection) {
        let pointer = connection.pointer
        while head < inFlight.count, PQisBusy(pointer) == 0 {
            let result = PQgetResult(pointer)
            switch inFlight[head].stage {
            case .prepare:
                guard let result else { return outOfStep(connection) }
                let error = connection.error(in: result)
                PQclear(result)
                if let error {
                    let statement = inFlight[head]
                    if connection.statements[statement.key] == statement.name {
                        connection.statements[statement.key] = nil
                    }
                    connection.statementNames.remove(statement.name)
                    failedPrepares[statement.name] = error
                }
                inFlight[head].prepareError = error
                inFlight[head].stage = .prepareEnd
            case .prepareEnd, .resultEnd:
                if let result {
                    PQclear(result)
                    return outOfStep(connection)
                }
                inFlight[head].stage = inFlight[head].stage == .prepareEnd ? .result : .sync
            case .result:
                guard let result else { return outOfStep(connection) }
                inFlight[head].outcome = outcome(of: result, for: inFlight[head], on: connection)
                inFlight[head].stage = .resultEnd
            case .sync:
                guard let result else { return outOfStep(connection) }
                let isSync = PQresultStatus(result) == PGRES_PIPELINE_SYNC
                PQclear(result)
                guard isSync else { return outOfStep(connection) }
                let done = inFlight[head]
                head += 1
                done.continuation.resume(with: done.outcome.mapError { $0 as any Error })
            }
        }
        if head == inFlight.count {
            inFlight.removeAll(keepingCapacity: true)
            head = 0
            failedPrepares.removeAll()
        } else if head >= 64, head * 2 >= inFlight.count {
            // Under steady load the queue never empties: drop the answered front now and then.
            inFlight.removeFirst(head)
            head = 0
        }
    }

    private func outcome(
        of result: OpaquePointer, for statement: InFlight, on connection: PostgresConnection
    ) -> Result<PostgresRows, PostgresError> {
        if let prepareError = statement.prepareError {
            PQclear(result)
            return .failure(prepareError)
        }
        if let failure = connection.error(in: result) {
            PQclear(result)
            // A copy sent under the name of a prepare that failed reports that failure, not "does not exist".
            if let cause = failedPrepares[statement.name] { return .failure(cause) }
            // "cached plan must not change result type": forget it, so the next call prepares it afresh.
            if failure.isStalePreparedStatement, connection.statements[statement.key] == statement.name {
                connection.statements[statement.key] = nil
            }
            return .failure(failure)
        }
        return .success(PostgresRows(result: PostgresResult(taking: result)))
    }

    private func outOfStep(_ connection: PostgresConnection) {
        connection.isOutOfStep = true
    }
}

/// Carries a connection made on a helper thread to its loop; nothing else touches it in between.
private struct NewConnection: @unchecked Sendable {
    let connection: PostgresConnection?
    init(_ connection: PostgresConnection?) { self.connection = connection }
}
