import KindredRPC

/// Reads up to `limit` of the messages `recipient` received after cursor `after`, in inbox order, those from
/// someone blocked either way left out: `MessageStore.received`, or in tests a read that counts itself.
typealias InboxRead =
    @Sendable (_ recipient: String, _ after: Int64, _ limit: Int) async throws -> [ReceivedMessage]

/// One read per wake-up per recipient per process. The streams of one recipient wake together and mostly stand
/// at the same cursor, so the first to ask reads and the others at that cursor are handed its rows. A read is
/// shared only with streams whose wake-up it started after (it counts the recipient's rings), so a stream
/// never takes rows read before the message that woke it committed. A stream at another cursor (one that
/// resumed from an older cursor, or fell behind while sending) reads for itself until it catches up.
///
/// Memory: only the recipient's latest read is kept, at most `readBatch` rows, until their last local stream
/// ends; a slow stream holds the one batch it is sending and nothing waits in a queue for it. The read runs
/// in a task of its own, so a stream that ends while it is under way takes nothing from the others.
extension MessageBell {
    /// Messages one read returns at most.
    static let readBatch = 100

    /// A read of one recipient's inbox after `after`, begun once their bell had rung `rungAt` times.
    struct SharedRead {
        let after: Int64
        let rungAt: UInt64
        let rows: Task<[ReceivedMessage], any Error>
    }

    /// Up to `readBatch` of the messages `subscription`'s recipient received after `cursor`, read after the
    /// recipient's ring number `rung`: another local stream's read when one at that cursor began since,
    /// otherwise a new read, which the others may share. Nothing once the bell closed.
    func received(after cursor: Int64, since rung: UInt64, by subscription: Subscription) async throws
        -> [ReceivedMessage]
    {
        let recipient = subscription.recipient
        let read = state.withLock { state -> Task<[ReceivedMessage], any Error>? in
            guard var shared = state.recipients[recipient] else { return nil }
            if let last = shared.lastRead, last.after == cursor, last.rungAt >= rung { return last.rows }
            // On this loop, so that the read goes out on the loop's own connection.
            let rows = Task(executorPreference: EventLoop.currentLoop) { [readInbox] in
                try await readInbox(recipient, cursor, Self.readBatch)
            }
            shared.lastRead = SharedRead(after: cursor, rungAt: shared.rung, rows: rows)
            state.recipients[recipient] = shared
            return rows
        }
        guard let read else { return [] }
        do {
            return try await read.value
        } catch {
            // A failed read is not handed to streams that ask later.
            state.withLock { state in
                if state.recipients[recipient]?.lastRead?.rows == read {
                    state.recipients[recipient]?.lastRead = nil
                }
            }
            throw error
        }
    }
}
