internal import Synchronization

/// One read per wake-up per recipient per process. The streams of one recipient wake together and mostly stand
/// at the same cursor, so the first to ask reads and the others at that cursor are handed its rows. A read is
/// shared only with streams whose wake-up it started after (it counts the recipient's rings), so a stream
/// never takes rows read before the commit that woke it. A stream at another cursor (one that resumed from an
/// older cursor, or fell behind while sending) reads for itself until it catches up.
///
/// Memory: only the recipient's latest read is kept, at most `readBatch` rows, until their last local stream
/// ends; a slow stream holds the one batch it is sending and nothing waits in a queue for it. The read runs
/// in a task of its own, so a stream that ends while it is under way takes nothing from the others.
extension RecipientBell {
    /// A read of one recipient's rows after `after`, begun once their bell had rung `rungAt` times.
    struct SharedRead {
        let after: Int64
        let rungAt: UInt64
        let rows: Task<[Row], any Error>
    }

    /// Up to `readBatch` of `subscription`'s recipient's rows after `cursor`, read after the recipient's ring
    /// number `rung`: another local stream's read when one at that cursor began since, otherwise a new read,
    /// which the others may share. Nothing once the bell closed.
    func rows(after cursor: Int64, since rung: UInt64, for subscription: Subscription) async throws -> [Row] {
        let recipient = subscription.recipient
        let pending = state.withLock { state -> Task<[Row], any Error>? in
            guard var shared = state.recipients[recipient] else { return nil }
            if let last = shared.lastRead, last.after == cursor, last.rungAt >= rung { return last.rows }
            // On the caller's event loop, so that the read goes out on the loop's own connection.
            let rows = Task(executorPreference: pool.currentLoop() as? any TaskExecutor) {
                [read, readBatch] in
                try await read(recipient, cursor, readBatch)
            }
            shared.lastRead = SharedRead(after: cursor, rungAt: shared.rung, rows: rows)
            state.recipients[recipient] = shared
            return rows
        }
        guard let pending else { return [] }
        do {
            return try await pending.value
        } catch {
            // A failed read is not handed to streams that ask later.
            state.withLock { state in
                if state.recipients[recipient]?.lastRead?.rows == pending {
                    state.recipients[recipient]?.lastRead = nil
                }
            }
            throw error
        }
    }
}
