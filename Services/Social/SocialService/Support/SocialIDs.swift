import KindredHandlers

// Social's own kinds of id; a user's is KindredHandlers' `UserID`.
extension IDKind {
    /// A gathering.
    enum Event {}
    /// A photo or video of an event.
    enum Media {}
    /// A friend request.
    enum FriendRequest {}
    /// One person's side of a direct-message pair.
    enum Conversation {}
    /// A direct message.
    enum Message {}
    /// What a report names: a user, a message, an event or a media item, as the report's kind says.
    enum Content {}
    /// A guardian approval request, family's: social keeps its id and asks family for its decision.
    enum Approval {}
}

typealias EventID = ID<IDKind.Event>
typealias MediaID = ID<IDKind.Media>
typealias FriendRequestID = ID<IDKind.FriendRequest>
typealias ConversationID = ID<IDKind.Conversation>
typealias MessageID = ID<IDKind.Message>
typealias ContentID = ID<IDKind.Content>
typealias ApprovalID = ID<IDKind.Approval>
