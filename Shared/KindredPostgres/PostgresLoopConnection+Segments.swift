/// Settling a segment once its sync is back. The statements before one sync ran in one implicit transaction:
/// if one failed, the server rolled back those before it (their answers came back fine all the same) and
/// skipped those after it. So a statement's answer is final only when its whole segment succeeded, or when
/// its own failure is its answer. Every other statement of a failed segment is sent again, alone in a
/// segment of its own: its effects were rolled back, so this cannot apply anything twice, and whatever it
/// gets then is final. Each failed segment settles its failing statement or sends it alone, so every
/// statement is sent at most twice.
extension PostgresLoopConnection {
    /// A Parse that failed (`cause`) or was skipped (nil) in a segment that failed, as seen by the
    /// statements sent under its name before that was known (sequence numbers below `before`).
    struct LostPrepare {
        let cause: PostgresError?
        let before: UInt64
    }

    private enum Settlement {
        case resume(Result<PostgresRows, PostgresError>)
        case resend
    }

    /// Resumes or re-sends each statement of the segment whose sync was just read.
    func settleSegment() {
        let segment = segmentStart..<head
        segmentStart = head
        let failure = inFlight[segment].lazy.compactMap {
            if case .failed(let error) = $0.outcome { error } else { nil }
        }
        .first
        var resends: [(PostgresQuery, Reply)] = []
        for index in segment {
            // Taken out rather than copied: the result is freed now, not when the queue is trimmed.
            var outcome = InFlight.Outcome.skipped
            swap(&outcome, &inFlight[index].outcome)
            switch settlement(of: outcome, at: index, segmentFailure: failure, segmentSize: segment.count) {
            case .resume(let result):
                inFlight[index].reply?.resume(with: result.mapError { $0 as any Error })
            case .resend:
                // Only pooled statements are resent, and every pooled statement has a caller waiting.
                if let reply = inFlight[index].reply {
                    resends.append((inFlight[index].query, reply))
                }
            }
        }
        forgetLostPreparesWhenSettled()
        for (index, (query, reply)) in resends.enumerated() {
            guard isUp else {
                let error = PostgresError.connectionLost("the connection to PostgreSQL broke before a retry")
                resends[index...].forEach { $0.1.resume(throwing: error) }
                return
            }
            send(query, reply: reply, as: .retry)
        }
    }

    private func settlement(
        of outcome: InFlight.Outcome, at index: Int, segmentFailure: PostgresError?, segmentSize: Int
    ) -> Settlement {
        let isFinal = inFlight[index].isFinal
        switch outcome {
        case .rows(let rows):
            return segmentFailure != nil && !isFinal ? .resend : .resume(.success(rows))
        case .skipped:
            // A retry is alone in its segment; a transaction's statement is skipped when its BEGIN failed.
            if isFinal { return .resume(.failure(segmentFailure ?? .connectionLost("pipeline out of step"))) }
            // A copy of a statement whose prepare failed reports that failure.
            if let cause = lostPrepare(at: index)?.cause { return .resume(.failure(cause)) }
            return .resend
        case .failed(let error):
            if isFinal { return .resume(.failure(error)) }
            // "Prepared statement does not exist": sent under a name whose Parse failed or was skipped.
            if error.sqlState == "26000", let lost = lostPrepare(at: index) {
                return lost.cause.map { .resume(.failure($0)) } ?? .resend
            }
            if segmentSize > 1, error.mayComeFromSharingATransaction { return .resend }
            return .resume(.failure(error))
        }
    }

    /// Records that `plan`'s Parse did not leave a statement on the server.
    func lose(
        _ plan: PostgresConnection.StatementPlan, cause: PostgresError?, on connection: PostgresConnection
    ) {
        connection.forget(plan.name, key: plan.key)
        lostPrepares[plan.name] = LostPrepare(cause: cause, before: nextSequence)
    }

    private func lostPrepare(at index: Int) -> LostPrepare? {
        guard !lostPrepares.isEmpty, let lost = lostPrepares[inFlight[index].plan.name],
            inFlight[index].sequence < lost.before
        else { return nil }
        return lost
    }

    /// Once every statement sent before the last loss is settled, no pending one can refer to a lost name.
    private func forgetLostPreparesWhenSettled() {
        // Checked before the max: a key path made on every settled segment showed in profiles.
        guard !lostPrepares.isEmpty, let horizon = lostPrepares.values.lazy.map({ $0.before }).max() else {
            return
        }
        if segmentStart == inFlight.count || inFlight[segmentStart].sequence >= horizon {
            lostPrepares.removeAll()
        }
    }
}

extension PostgresError {
    /// Failures that sharing a transaction with other statements can cause: "cannot run inside a
    /// transaction block / pipeline" (25001), and the serialization failures and deadlocks that locks and
    /// snapshots held until the segment's end make likelier (40001, 40P01).
    fileprivate var mayComeFromSharingATransaction: Bool {
        sqlState == "25001" || sqlState == "40001" || sqlState == "40P01"
    }
}
