internal import CLibPQ

extension PostgresConnection {
    /// Runs `queries` as one pipeline: each is prepared on first use, executed, and followed by its own sync,
    /// so each is its own implicit transaction (or a step of the open one) and a failing query cannot abort
    /// its neighbours. One flush per query; the answers are read in order. A long pipeline cannot deadlock
    /// with a server blocked on sending large results: while libpq waits to write it reads and buffers input.
    func execute(_ queries: [PostgresQuery]) -> [Result<PostgresRows, PostgresError>] {
        var sent: [Result<StatementPlan, PostgresError>] = []
        sent.reserveCapacity(queries.count)
        for query in queries {
            if let error = query.binds.invalidBindError {
                sent.append(.failure(error))
                continue
            }
            // A statement repeated within one batch is prepared once: the later copies use the name the
            // first one is preparing.
            let plan = plan(query)
            guard send(query, as: plan), sync() else {
                // Whatever part of this query went out has no sync: the answers would no longer line up.
                isOutOfStep = true
                break
            }
            sent.append(.success(plan))
        }
        var results: [Result<PostgresRows, PostgresError>] = []
        results.reserveCapacity(queries.count)
        var failedPrepares: [StatementKey: PostgresError] = [:]
        for statement in sent {
            if isBroken { break }
            switch statement {
            case .failure(let error): results.append(.failure(error))
            case .success(let plan):
                var result = receive(plan)
                if case .failure(let error) = result {
                    // Copies of a statement whose prepare failed report that failure, not "does not exist".
                    if plan.preparing, statements[plan.key] == nil {
                        failedPrepares[plan.key] = error
                    } else if !plan.preparing, let cause = failedPrepares[plan.key] {
                        result = .failure(cause)
                    }
                }
                results.append(result)
            }
        }
        let lost = PostgresError.connectionLost(errorMessage)
        while results.count < queries.count { results.append(.failure(lost)) }
        return results
    }

    private func receive(_ plan: StatementPlan) -> Result<PostgresRows, PostgresError> {
        var prepareError: PostgresError?
        if plan.preparing {
            guard let prepared = nextStatementResult() else { return .failure(.connectionLost(errorMessage)) }
            prepareError = error(in: prepared)
            PQclear(prepared)
            if prepareError != nil { forget(plan.name, key: plan.key) }
        }
        guard let result = nextStatementResult() else { return .failure(.connectionLost(errorMessage)) }
        let outcome: Result<PostgresRows, PostgresError>
        if let prepareError {
            PQclear(result)
            outcome = .failure(prepareError)
        } else if let failure = error(in: result) {
            PQclear(result)
            // "cached plan must not change result type": a migration changed a table under this prepared
            // statement. Forget it, so the next call prepares it afresh.
            if failure.isStalePreparedStatement { statements[plan.key] = nil }
            outcome = .failure(failure)
        } else {
            outcome = .success(PostgresRows(result: PostgresResult(taking: result)))
        }
        guard let sync = PQgetResult(pointer) else { return .failure(.connectionLost(errorMessage)) }
        isOutOfStep = PQresultStatus(sync) != PGRES_PIPELINE_SYNC
        PQclear(sync)
        return isOutOfStep ? .failure(.connectionLost("pipeline out of step: expected a sync")) : outcome
    }

    /// A statement's result, consuming the NULL that ends it in pipeline mode.
    private func nextStatementResult() -> OpaquePointer? {
        guard let result = PQgetResult(pointer) else { return nil }
        if let unexpected = PQgetResult(pointer) {
            isOutOfStep = true
            PQclear(unexpected)
            PQclear(result)
            return nil
        }
        return result
    }
}
