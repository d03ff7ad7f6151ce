import FoundationEssentials
import KindredHandlers
import KindredMessages

/// A direct message as `social.shown_messages` reads it: with its sender, and how many different people
/// reported it.
struct StoredMessage: Sendable, Equatable {
    let id: MessageID
    let conversationID: ConversationID
    let sender: Person
    let recipientID: UserID
    let body: String
    let sentAt: Date
    let reporters: Int

    /// Reported by enough people to be withheld from everyone.
    var filtered: Bool { reporters >= ReportTally.filterThreshold }

    /// The same message, in conversation `conversationID`.
    func into(conversation conversationID: ConversationID) -> StoredMessage {
        StoredMessage(
            id: id, conversationID: conversationID, sender: sender, recipientID: recipientID, body: body,
            sentAt: sentAt, reporters: reporters)
    }

    /// The message as every reader sees it: a filtered one without its text.
    var proto: Kindred_Social_V1_Message {
        Kindred_Social_V1_Message(
            messageID: id.description, conversationID: conversationID.description, sender: sender.proto,
            recipientUserID: recipientID.description,
            text: filtered ? "" : body, sentAt: sentAt, filtered: filtered)
    }
}

/// A message in its recipient's inbox, with its place there (`recipient_seq`): the cursor `WatchMessages`
/// resumes after, and what its `RecipientBell` reads by.
struct ReceivedMessage: Sendable, Equatable {
    let cursor: Int64
    let message: StoredMessage

    /// The message as its recipient's stream sends it.
    var proto: Kindred_Social_V1_Message {
        var proto = message.proto
        proto.cursor = cursor
        return proto
    }
}
