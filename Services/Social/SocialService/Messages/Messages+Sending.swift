import FoundationEssentials
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredRuntime

/// `SendMessage`: one message, past blocks and parental controls, written once however often it is retried.
extension Messages {
    /// Raised inside the sending transaction when a concurrent send with the same request_id committed first,
    /// so that everything the transaction wrote rolls back.
    private struct RequestAlreadySent: Error {}

    /// Sends `draft` from `senderID` (the caller; `restricted` is their token's `pc` claim) and returns the
    /// message. A retry with the same request_id returns the first message and changes nothing. Refusals, in
    /// this order: an unknown recipient (USER_NOT_FOUND), a block either way, parental controls.
    func send(_ draft: MessageDraft, from senderID: String, restricted: Bool) async throws
        -> Kindred_Social_V1_Message
    {
        guard draft.recipientID != senderID else { throw SocialError.notYourself }
        // Four independent reads, sent together.
        async let earlier = MessageStore.sent(by: senderID, requestID: draft.requestID, on: database)
        async let sender = people.person(senderID)
        async let recipient = people.person(draft.recipientID)
        async let relationship = RelationshipStore.between(senderID, draft.recipientID, on: database)
        if let earlier = try await earlier { return try retried(draft, earlier) }
        let (from, to) = try await (sender, recipient)
        try await relationship.requireNoBlock()
        try await controls.requireAllowed(
            from: senderID, senderRestricted: restricted, to: to, try await relationship)
        do {
            let message = try await database.transaction { tx in
                try await deliver(draft, from: from, to: to, in: tx)
            }
            bell.announce(to.id)
            return message.proto
        } catch is RequestAlreadySent {
            // The conflicting message committed before the insert gave way to it: it is there to read.
            guard
                let first = try await MessageStore.sent(
                    by: senderID, requestID: draft.requestID, on: database)
            else {
                throw RPCError(.aborted, "the message sent with this request_id could not be read; retry")
            }
            return try retried(draft, first)
        }
    }

    /// The first message sent with `draft`'s request_id, as a retry gets it; REQUEST_ID_REUSED when that
    /// message was another.
    private func retried(_ draft: MessageDraft, _ first: StoredMessage) throws -> Kindred_Social_V1_Message {
        guard draft.isRetry(of: first) else { throw SocialError.requestIDReused }
        return first.proto
    }

    /// Writes the message under the pair's lock: into the pair's conversation (a new one for a first
    /// message), with `message.new_contact` when it opens a minor's conversation with someone new.
    private func deliver(
        _ draft: MessageDraft, from sender: Person, to recipient: Person, in tx: PostgresTransaction
    ) async throws -> StoredMessage {
        try await MessageStore.lockPair(sender.id, recipient.id, in: tx)
        let existing = try await MessageStore.conversationID(of: sender.id, with: recipient.id, in: tx)
        let now = clock.now
        let message = StoredMessage(
            id: UUIDv7.generate(at: now), conversationID: existing ?? UUIDv7.generate(at: now),
            sender: sender, recipientID: recipient.id, body: draft.text, sentAt: now, reporters: 0)
        guard try await MessageStore.insert(message, requestID: draft.requestID, in: tx) else {
            throw RequestAlreadySent()
        }
        if existing == nil && recipient.minor {
            let event = Kindred_Social_V1_MessageNewContact(
                minorUserID: recipient.id, senderUserID: sender.id, senderUsername: sender.username,
                conversationID: message.conversationID)
            let payload = try Kindred_Social_V1_Event(payload: .messageNewContact(event)).serializedBytes()
            try await SocialEvents.outbox.append(type: "message.new_contact", payload: payload, in: tx)
        }
        return message
    }
}
