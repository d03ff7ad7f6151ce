import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC

/// `SendMessage`: one message, past blocks and parental controls, written once however often it is retried.
extension Messages {
    /// Sends `draft` from `senderID` (the caller; `restricted` is their token's `pc` claim) and returns the
    /// message. A retry with the same request_id returns the first message and changes nothing. Refusals, in
    /// this order: an unknown recipient (USER_NOT_FOUND), a block either way, parental controls.
    func send(_ draft: MessageDraft, from senderID: UserID, restricted: Bool) async throws
        -> Kindred_Social_V1_Message
    {
        guard draft.recipientID != senderID else { throw SocialError.notYourself }
        let known = try await MessageStore.sendingContext(
            from: senderID, to: draft.recipientID, requestID: draft.requestID, bodies: bodies, on: database)
        if let earlier = known.earlier { return try retried(draft, earlier) }
        // Identity is asked only about someone social has not met yet.
        async let sender = people.person(senderID, known: known.sender)
        async let recipient = people.person(draft.recipientID, known: known.recipient)
        let (from, to) = try await (sender, recipient)
        try known.relationship.requireNoBlock()
        try await controls.requireAllowed(
            from: senderID, senderRestricted: restricted, to: to, known.relationship)
        do {
            let message = try await deliver(draft, from: from, to: to)
            announcer.announce([to.id.description])
            return message.proto
        } catch let error as PostgresError where error.isUniqueViolation {
            // The request_id was used before: that message committed first, and is there to read.
            guard
                let first = try await MessageStore.sent(
                    by: senderID, requestID: draft.requestID, bodies: bodies, on: database)
            else {
                throw RPCError(.aborted, "Your message could not be confirmed. Please send it again.")
            }
            return try retried(draft, first)
        }
    }

    /// The first message sent with `draft`'s request_id, as a retry gets it; REQUEST_ID_REUSED when that
    /// message was another. Its recipient is announced again: the replica that wrote it may have died between
    /// its commit and its announcement (a SIGKILL, a lost node), which is when a client retries elsewhere, and
    /// the recipient's streams would otherwise wait for their next message. They read by cursor, so a second
    /// wake-up sends nothing twice.
    private func retried(_ draft: MessageDraft, _ first: StoredMessage) throws -> Kindred_Social_V1_Message {
        guard draft.isRetry(of: first) else { throw SocialError.requestIDReused }
        announcer.announce([first.recipientID.description])
        return first.proto
    }

    /// Writes the message into the pair's conversation (a new one for a first message), with
    /// `message.new_contact` when it opens a minor's conversation with someone new; one statement. Announces
    /// nobody: the caller does, once it committed.
    func deliver(_ draft: MessageDraft, from sender: Person, to recipient: Person) async throws
        -> StoredMessage
    {
        let now = clock.now
        let candidate = ConversationID.generate(at: now)
        let newContact =
            recipient.minor
            ? try Kindred_Social_V1_Event(
                payload: .messageNewContact(
                    Kindred_Social_V1_MessageNewContact(
                        minorUserID: recipient.id.description, senderUserID: sender.id.description,
                        senderUsername: sender.username, conversationID: candidate.description))
            ).serializedBytes() : nil
        let message = StoredMessage(
            id: MessageID.generate(at: now), conversationID: candidate, sender: sender,
            recipientID: recipient.id,
            body: draft.text, sentAt: now, reporters: 0)
        let conversation = try await MessageStore.insert(
            message, requestID: draft.requestID, newContact: newContact, bodies: bodies, on: database)
        return message.into(conversation: conversation)
    }
}
