internal import CLibPQ

extension PostgresLoopConnection {
    /// One statement's way through the pipeline: [prepare result, end], result, end; the last statement of
    /// a segment is followed by the segment's sync.
    struct InFlight {
        enum Stage { case prepare, prepareEnd, result, resultEnd }
        /// What the server said of the statement itself, before its segment is judged whole.
        enum Outcome {
            case rows(PostgresRows)
            case failed(PostgresError)
            /// Not run: an earlier statement of the segment failed.
            case skipped
        }
        var stage: Stage
        let query: PostgresQuery
        let plan: PostgresConnection.StatementPlan
        let sequence: UInt64
        /// Its first answer is its answer: a retry, or a step of an explicit transaction.
        let isFinal: Bool
        /// Nil when nobody waits for the answer (a transaction's BEGIN or ROLLBACK).
        let reply: Reply?
        var endsSegment = false
        var prepareError: PostgresError?
        var outcome: Outcome = .skipped
    }

    /// Who takes a statement's answer: a caller suspended until it comes, or a statement deferred to a
    /// transaction's commit, whose rows wait for the commit's outcome (a failure reaches the COMMIT, which
    /// the server then skips).
    enum Reply {
        case caller(UnsafeContinuation<PostgresRows, any Error>)
        case deferred(DeferredAnswer)

        func resume(with result: Result<PostgresRows, any Error>) {
            switch self {
            case .caller(let continuation): continuation.resume(with: result)
            case .deferred(let answer): if case .success(let rows) = result { answer.keep(rows) }
            }
        }

        func resume(throwing error: any Error) { resume(with: .failure(error)) }
    }

    /// Takes every complete answer libpq has buffered, in order; at each sync, settles that segment.
    func readResults(_ connection: PostgresConnection) {
        let pointer = connection.pointer
        while self.connection === connection, PQisBusy(pointer) == 0 {
            if head > segmentStart, inFlight[head - 1].endsSegment {
                guard let sync = PQgetResult(pointer) else { return outOfStep(connection) }
                let isSync = PQresultStatus(sync) == PGRES_PIPELINE_SYNC
                PQclear(sync)
                guard isSync else { return outOfStep(connection) }
                settleSegment()
                continue
            }
            // The rest has no sync yet: the server holds its answers until one arrives.
            guard head < inFlight.count else { break }
            let result = PQgetResult(pointer)
            switch inFlight[head].stage {
            case .prepare:
                guard let result else { return outOfStep(connection) }
                prepared(result, on: connection)
                inFlight[head].stage = .prepareEnd
            case .prepareEnd, .resultEnd:
                if let result {
                    PQclear(result)
                    return outOfStep(connection)
                }
                if inFlight[head].stage == .prepareEnd {
                    inFlight[head].stage = .result
                } else {
                    head += 1
                }
            case .result:
                guard let result else { return outOfStep(connection) }
                inFlight[head].outcome = outcome(of: result, on: connection)
                inFlight[head].stage = .resultEnd
            }
        }
        dropSettled()
    }

    /// A Parse that failed or was skipped leaves no statement on the server: forget the name.
    private func prepared(_ result: OpaquePointer, on connection: PostgresConnection) {
        let statement = inFlight[head]
        if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
            lose(statement.plan, cause: nil, on: connection)
        } else if let error = connection.error(in: result) {
            lose(statement.plan, cause: error, on: connection)
            inFlight[head].prepareError = error
        }
        PQclear(result)
    }

    /// What the result says of the statement at `head`.
    private func outcome(of result: OpaquePointer, on connection: PostgresConnection) -> InFlight.Outcome {
        if let prepareError = inFlight[head].prepareError {
            PQclear(result)
            return .failed(prepareError)
        }
        if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
            PQclear(result)
            return .skipped
        }
        if let failure = connection.error(in: result) {
            PQclear(result)
            // "cached plan must not change result type": forget it, so the next call prepares it afresh.
            let plan = inFlight[head].plan
            if failure.isStalePreparedStatement, connection.statements[plan.key]?.name == plan.name {
                connection.statements[plan.key] = nil
            }
            return .failed(failure)
        }
        return .rows(PostgresRows(result: PostgresResult(taking: result)))
    }

    /// Drops the settled front of the queue (a deque: only the dropped statements are touched).
    private func dropSettled() {
        inFlight.removeFirst(segmentStart)
        head -= segmentStart
        segmentStart = 0
    }

    private func outOfStep(_ connection: PostgresConnection) {
        connection.isOutOfStep = true
    }
}
