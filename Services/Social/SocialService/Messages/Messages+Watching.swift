import KindredHandlers
import KindredMessages

/// `WatchMessages`: what the caller receives, as it commits, from any instance, resumable at a cursor.
extension Messages {
    /// Sends the messages `recipient` received after `cursor` (their place in the recipient's inbox; 0: from
    /// now on), then each new one as it commits, each once, in the order they committed, until the bell closes
    /// (the drain) or the calling task is cancelled; messages from someone blocked either way are left out. A
    /// negative cursor or one past the newest message received is INVALID_ARGUMENT.
    func watch(
        for recipient: UserID, after cursor: Int64 = 0, send: (Kindred_Social_V1_Message) async throws -> Void
    ) async throws {
        if cursor < 0 { throw FieldViolations.single("after_cursor", "must not be negative") }
        try await bell.stream(to: recipient.description) { [database] in
            let newest = try await MessageStore.inboxPosition(of: recipient, on: database)
            if cursor > newest {
                throw FieldViolations.single("after_cursor", "is past the newest message you received")
            }
            return cursor == 0 ? (newest, false) : (cursor, cursor < newest)
        } send: { received in
            try await send(received.proto)
        }
    }
}
