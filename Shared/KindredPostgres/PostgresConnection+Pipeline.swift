internal import CLibPQ

extension PostgresConnection {
    /// One query's progress through the pipeline.
    enum Sent {
        case rejected(PostgresError)
        case statement(name: String, key: StatementKey, preparing: Bool)
    }

    /// Runs `queries` as one pipeline: each is prepared on first use, executed, and followed by its own sync,
    /// so each is its own implicit transaction (or a step of the open one) and a failing query cannot abort
    /// its neighbours. One flush per query; the answers are read in order. A long pipeline cannot deadlock
    /// with a server blocked on sending large results: while libpq waits to write it reads and buffers input.
    func execute(_ queries: [PostgresQuery]) -> [Result<PostgresRows, PostgresError>] {
        var sent: [Sent] = []
        sent.reserveCapacity(queries.count)
        // A statement repeated within one batch is prepared once: the later copies use the name the first
        // one is preparing.
        var preparingNow: [StatementKey: String] = [:]
        for query in queries {
            if let index = query.binds.invalidBind {
                sent.append(
                    .rejected(
                        PostgresError(
                            kind: .invalidBind, message: "bind parameter $\(index) is text holding a NUL byte"
                        )))
                continue
            }
            guard let statement = send(query, preparingNow: &preparingNow) else {
                // Whatever part of this query went out has no sync: the answers would no longer line up.
                isOutOfStep = true
                break
            }
            sent.append(statement)
        }
        var results: [Result<PostgresRows, PostgresError>] = []
        results.reserveCapacity(queries.count)
        var failedPrepares: [StatementKey: PostgresError] = [:]
        for statement in sent {
            if isBroken { break }
            switch statement {
            case .rejected(let error): results.append(.failure(error))
            case .statement(let name, let key, let preparing):
                var result = receive(name: name, key: key, preparing: preparing)
                if case .failure(let error) = result {
                    // Copies of a statement whose prepare failed report that failure, not "does not exist".
                    if preparing, statements[key] == nil {
                        failedPrepares[key] = error
                    } else if !preparing, let cause = failedPrepares[key] {
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

    func send(_ query: PostgresQuery, preparingNow: inout [StatementKey: String]) -> Sent? {
        let binds = query.binds
        let key = StatementKey(sql: query.sql, types: binds.types)
        let name: String
        let preparing: Bool
        if let known = statements[key] ?? preparingNow[key] {
            (name, preparing) = (known, false)
        } else {
            (name, preparing) = (statementName(for: key), true)
            guard PQsendPrepare(pointer, name, query.sql, Int32(binds.count), binds.types) == 1 else {
                return nil
            }
            preparingNow[key] = name
        }
        let sentQuery = binds.bytes.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress)
            let values: [UnsafePointer<CChar>?] = binds.offsets.enumerated().map { index, offset in
                binds.lengths[index] < 0
                    ? nil : base.map { ($0 + offset).assumingMemoryBound(to: CChar.self) }
            }
            return PQsendQueryPrepared(
                pointer, name, Int32(binds.count), values, binds.lengths, binds.formats, 1)
        }
        guard sentQuery == 1, PQpipelineSync(pointer) == 1 else { return nil }
        return .statement(name: name, key: key, preparing: preparing)
    }

    private func receive(name: String, key: StatementKey, preparing: Bool) -> Result<
        PostgresRows, PostgresError
    > {
        var prepareError: PostgresError?
        if preparing {
            guard let prepared = nextStatementResult() else { return .failure(.connectionLost(errorMessage)) }
            prepareError = error(in: prepared)
            PQclear(prepared)
            if prepareError == nil {
                statements[key] = name
            } else {
                statementNames.remove(name)
            }
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
            if failure.isStalePreparedStatement { statements[key] = nil }
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

    /// A name derived from the statement text and types (FNV-1a), unique on this connection.
    private func statementName(for key: StatementKey) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.sql.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        for type in key.types { hash = (hash ^ UInt64(type)) &* 0x0000_0100_0000_01B3 }
        let base = "kindred_" + String(hash, radix: 16)
        var name = base
        var suffix = 1
        while statementNames.contains(name) {
            name = base + "_\(suffix)"
            suffix += 1
        }
        statementNames.insert(name)
        return name
    }
}
