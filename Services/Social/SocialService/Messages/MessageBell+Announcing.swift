import KindredPostgres

/// Announcing: after a message commits, the sender's instance tells every instance's streams of its
/// recipient. Announcements go in batches, one small transaction at a time per instance (at most one in
/// flight; what arrives meanwhile goes in the next), committed without waiting for the WAL flush.
extension MessageBell {
    /// Recipients announced per transaction at most.
    static let announceBatch = 500

    /// Tells the streams of `recipient`, in every instance, that a message for them committed.
    func announce(_ recipient: String) {
        state.withLock { state in
            state.unannounced.insert(recipient)
            if state.announcer == nil { state.announcer = Task { [self] in await announcePending() } }
        }
    }

    /// Sends what waits to be announced, a batch per transaction, until nothing does.
    private func announcePending() async {
        while true {
            let batch = state.withLock { state in
                let batch = Array(state.unannounced.prefix(Self.announceBatch))
                state.unannounced.subtract(batch)
                if batch.isEmpty { state.announcer = nil }
                return batch
            }
            guard !batch.isEmpty else { return }
            do {
                try await MessageStore.announce(batch, on: Self.channel, pool)
            } catch {
                logger.warning(
                    "could not announce new messages",
                    metadata: ["error": "\(error)", "recipients": "\(batch.count)"])
            }
        }
    }
}
