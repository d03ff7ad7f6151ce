/// The conversations the seed writes between friends (`SeedWriter+History`), laid out so that a batch of users
/// can be written without reading anything back: each user opens one conversation with each friend ahead of it
/// in the ring (`distance` 1…reach, so each pair of friends has exactly one), and the two take turns, the
/// opener first, for `messagesPerConversation` messages. Every number social keeps per recipient (a message's
/// place in its recipient's inbox, the inbox's last place) follows from the layout, the same in this type and
/// in the seed's SQL.
public struct ConversationHistory: Sendable, Equatable {
    /// Even, so that each side receives half of every conversation.
    public static let messagesPerConversation = 10

    /// How many friends on each side of a user (`SeededUsers.friends`); 0 below three users, where the friends
    /// ahead and behind are the same people and a pair would get two conversations.
    public let reach: Int

    public init(users: Int, friendsPerSide: Int) {
        reach = max(0, min(friendsPerSide, (users - 1) / 2))
    }

    /// Message `message` of the conversation user `opener` opened with the friend `distance` ahead: whether the
    /// opener receives it (the friend sent it), and its 1-based place in its recipient's inbox. Each recipient
    /// gets half of each of its 2 × reach conversations: the one opened with it by the user `distance` behind
    /// takes places block 2 × (distance − 1), the one it opened block 2 × (distance − 1) + 1.
    public static func inboxPlace(distance: Int, message: Int) -> (openerReceives: Bool, place: Int) {
        let half = messagesPerConversation / 2
        let openerReceives = message % 2 == 1
        let block = 2 * (distance - 1) + (openerReceives ? 1 : 0)
        return (openerReceives, block * half + message / 2 + 1)
    }

    /// The last place of every seeded user's inbox once the seed is in: the run's messages follow it.
    public var inboxLength: Int { reach * Self.messagesPerConversation }

    /// A number unique to each seeded message: the seed's ids and request ids carry it.
    public func messageNumber(opener: Int, distance: Int, message: Int) -> Int {
        (opener * reach + distance - 1) * Self.messagesPerConversation + message
    }
}
