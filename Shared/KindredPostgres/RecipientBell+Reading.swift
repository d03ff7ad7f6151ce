internal import Synchronization

/// One read per wake-up per recipient per process, and one statement for the recipients rung together. The
/// streams of one recipient wake together and mostly stand at the same cursor, so their read is shared: the
/// ring itself starts it (`readAhead`), for every recipient it rings, at the cursor where most of the
/// recipient's streams stand, in one statement (`Read` takes every recipient with its cursor); a write that
/// fans out to a family's fifty members wakes fifty recipients and costs one statement, not fifty. A stream
/// at another cursor (one that resumed from an older cursor, or fell behind while sending), or one asking
/// before any ring (its start), reads for itself until it catches up, and the other streams of its recipient
/// at that cursor share that read. A read is shared only with streams whose wake-up it started after (it counts
/// the recipient's rings), so a stream never takes rows read before the commit that woke it.
///
/// Memory: only each recipient's latest read is kept, at most `readBatch` rows of theirs (and of the others
/// read in the same statement, until their streams move on), until their last local stream ends; a slow stream
/// holds the batch it is sending and nothing waits in a queue for it. The read runs in a task of its own, so a
/// stream that ends while it is under way takes nothing from the others.
extension RecipientBell {
    /// A read of one recipient's rows after `after`, begun once their bell had rung `rungAt` times: their part
    /// of `statement`'s answer.
    struct SharedRead {
        let after: Int64
        let rungAt: UInt64
        let statement: Task<[String: [Row]], any Error>
    }

    /// Recipients one statement reads at most.
    static var recipientsPerRead: Int { 500 }

    /// Up to `readBatch` of `subscription`'s recipient's rows after `cursor`, read after the recipient's ring
    /// number `rung`: the read their ring started, or another local stream's, when one at that cursor began
    /// since; otherwise a new read, which the others may share. Nothing once the bell closed.
    func rows(after cursor: Int64, since rung: UInt64, for subscription: Subscription) async throws -> [Row] {
        let recipient = subscription.recipient
        let pending = state.withLock { state -> Task<[String: [Row]], any Error>? in
            guard var shared = state.recipients[recipient] else { return nil }
            if let last = shared.lastRead, last.after == cursor, last.rungAt >= rung { return last.statement }
            let statement = startRead([recipient: cursor])
            shared.lastRead = SharedRead(after: cursor, rungAt: shared.rung, statement: statement)
            state.recipients[recipient] = shared
            return statement
        }
        guard let pending else { return [] }
        do {
            return try await pending.value[recipient] ?? []
        } catch {
            // A failed read is not handed to streams that ask later.
            state.withLock { state in
                if state.recipients[recipient]?.lastRead?.statement == pending {
                    state.recipients[recipient]?.lastRead = nil
                }
            }
            throw error
        }
    }

    /// Starts the reads the streams of `rung` (recipients whose rings were just counted) will ask for: for each,
    /// after the cursor most of their streams stand at, as far as the bell knows (`note`), all in one statement
    /// (one a `recipientsPerRead`). A recipient none of whose streams has told where it stands is left to its
    /// streams.
    func readAhead(_ rung: [String], in state: inout State) {
        var asked: [String: Int64] = [:]
        for name in rung {
            guard let streams = state.recipients[name]?.cursors.values, let cursor = Self.mostCommon(streams)
            else { continue }
            asked[name] = cursor
            if asked.count == Self.recipientsPerRead {
                share(startRead(asked), asked, in: &state)
                asked = [:]
            }
        }
        if !asked.isEmpty { share(startRead(asked), asked, in: &state) }
    }

    /// Hands `statement` to the recipients it reads, at the cursors `asked`, as their latest read.
    private func share(
        _ statement: Task<[String: [Row]], any Error>, _ asked: [String: Int64], in state: inout State
    ) {
        for (name, cursor) in asked {
            guard var recipient = state.recipients[name] else { continue }
            recipient.lastRead = SharedRead(after: cursor, rungAt: recipient.rung, statement: statement)
            state.recipients[name] = recipient
        }
    }

    /// A read of `asked` in a task of its own, on the calling event loop, so that it goes out on the loop's own
    /// connection.
    private func startRead(_ asked: [String: Int64]) -> Task<[String: [Row]], any Error> {
        Task(executorPreference: pool.currentLoop() as? any TaskExecutor) { [read, readBatch] in
            try await read(asked, readBatch)
        }
    }

    /// The value most of `cursors` hold (the smallest among equals), nil for none.
    static func mostCommon(_ cursors: some Sequence<Int64>) -> Int64? {
        var counts: [Int64: Int] = [:]
        for cursor in cursors { counts[cursor, default: 0] += 1 }
        return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    }
}
