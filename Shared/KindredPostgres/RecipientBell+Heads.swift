internal import Synchronization

/// The safety net under the announcements. A NOTIFY is sent by the instance that committed, after its commit
/// (`RecipientAnnouncer`); if that instance dies in between, or its statement fails, the row is committed and
/// nobody is told, and a stream waiting on another instance would get it only with the recipient's next row.
/// So the bell keeps where each of its streams stands and, every `headPollInterval`, asks where its recipients'
/// rows end, in one read for the whole process: a recipient whose newest row one of their streams has not
/// reached is rung, and the stream reads it. A stream at its recipient's head costs nothing more than its
/// share of that read.
extension RecipientBell {
    /// Records that `subscription`'s stream has sent everything up to `cursor`.
    func note(_ subscription: Subscription, at cursor: Int64) {
        state.withLock { state in
            state.recipients[subscription.recipient]?.cursors[subscription.id] = cursor
        }
    }

    /// The recipients whose newest row (in `heads`) is past where one of their streams stands.
    static func behind(_ positions: [String: Int64], heads: [String: Int64]) -> [String] {
        heads.compactMap { recipient, head in
            guard let position = positions[recipient], head > position else { return nil }
            return recipient
        }
    }

    /// Until the bell closes: every `headPollInterval`, reads the heads of the recipients with a stream here
    /// and rings those whose streams are behind. A failed read is tried again at the next interval.
    func pollHeads(_ heads: Heads) async {
        while true {
            do {
                try await Task.sleep(for: headPollInterval)
            } catch {
                return
            }
            // Each recipient's least advanced stream (streams still asking where to start have no place yet).
            let positions = state.withLock { state in
                state.recipients.compactMapValues { $0.cursors.values.min() }
            }
            guard !positions.isEmpty else { continue }
            do {
                let newest = try await heads(Array(positions.keys))
                let late = Self.behind(positions, heads: newest)
                if !late.isEmpty {
                    logger.debug(
                        "rows committed without a wake-up heard",
                        metadata: ["channel": "\(channel)", "recipients": "\(late.count)"])
                    ring(late)
                }
            } catch {
                logger.debug(
                    "could not read the streams' heads",
                    metadata: ["channel": "\(channel)", "error": "\(error)"])
            }
        }
    }
}
