import KindredMessages

/// `WatchMessages`: what the caller receives, as it commits, from any instance.
extension Messages {
    /// Messages a stream reads per query.
    static let watchBatch = 100

    /// Sends the messages `recipient` receives from now on, each once, in the order they committed, until
    /// the bell closes (the drain) or the calling task is cancelled; messages from someone blocked either way
    /// are left out.
    func watch(for recipient: String, send: (Kindred_Social_V1_Message) async throws -> Void) async throws {
        // Subscribed before the start is read: whatever commits after that read rings.
        guard let subscription = try bell.subscribe(recipient) else { return }
        defer { bell.unsubscribe(subscription) }
        var last = try await MessageStore.inboxPosition(of: recipient, on: database)
        var rings = subscription.rings.makeAsyncIterator()
        while await rings.next() != nil {
            var batch: [(seq: Int64, message: StoredMessage)]
            repeat {
                batch = try await MessageStore.received(
                    by: recipient, after: last, limit: Self.watchBatch, on: database)
                for (seq, message) in batch {
                    try await send(message.proto)
                    last = seq
                }
            } while batch.count == Self.watchBatch
        }
    }
}
