import KindredMessages
import KindredRuntime

/// `WatchMessages`: what the caller receives, as it commits, from any instance, resumable at a cursor.
extension Messages {
    /// Sends the messages `recipient` received after `cursor` (their place in the recipient's inbox; 0: from
    /// now on), then each new one as it commits, each once, in the order they committed, until the bell closes
    /// (the drain) or the calling task is cancelled; messages from someone blocked either way are left out. A
    /// negative cursor or one past the newest message received is INVALID_ARGUMENT.
    func watch(
        for recipient: String, after cursor: Int64 = 0, send: (Kindred_Social_V1_Message) async throws -> Void
    ) async throws {
        if cursor < 0 { throw FieldViolations.single("after_cursor", "must not be negative") }
        // Subscribed before the start is read: whatever commits after that read rings.
        guard let subscription = try bell.subscribe(recipient) else { return }
        defer { bell.unsubscribe(subscription) }
        let newest = try await MessageStore.inboxPosition(of: recipient, on: database)
        if cursor > newest {
            throw FieldViolations.single("after_cursor", "is past the newest message you received")
        }
        var last = cursor == 0 ? newest : cursor
        if last < newest {
            try await sendReceived(by: subscription, after: &last, since: subscription.subscribedAt, send)
        }
        for await rung in subscription.rings {
            try await sendReceived(by: subscription, after: &last, since: rung, send)
        }
    }

    /// Sends what `subscription`'s recipient received after `last`, as read since their ring `rung`, moving
    /// `last` along.
    private func sendReceived(
        by subscription: MessageBell.Subscription, after last: inout Int64, since rung: UInt64,
        _ send: (Kindred_Social_V1_Message) async throws -> Void
    ) async throws {
        var batch: [ReceivedMessage]
        repeat {
            batch = try await bell.received(after: last, since: rung, by: subscription)
            for received in batch {
                try await send(received.proto)
                last = received.cursor
            }
        } while batch.count == MessageBell.readBatch
    }
}
