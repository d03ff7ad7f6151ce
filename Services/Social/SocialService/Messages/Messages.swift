import KindredHandlers
import KindredPostgres

/// Direct messages: sending under blocks and parental controls, the caller's conversations and their
/// messages, and the stream of what the caller receives. Each rule takes the caller's id explicitly, so it
/// is tested without a server; the RPC handlers only translate. Rules are in `Messages+*.swift`, their SQL in
/// `MessageStore*.swift`.
struct Messages: Sendable {
    let database: PostgresPool
    let clock: WallClock
    let people: PeopleDirectory
    let controls: MessagingControls
    /// Seals and opens message bodies.
    let bodies: MessageBodies
    /// Wakes the `WatchMessages` streams of this process and shares their reads; closed at the drain.
    let bell: RecipientBell<ReceivedMessage>
    /// Wakes the streams of every instance once a message committed (`RecipientAnnouncer`).
    let announcer: RecipientAnnouncer
    /// The channel the messages' wake-ups go on.
    static let channel = "social_messages"

    /// The messages part of `context`; its streams read their inbox with `readInbox` (tests count reads
    /// through it), by default `MessageStore.received`.
    init(context: SocialContext, readInbox: RecipientBell<ReceivedMessage>.Read? = nil) {
        let database = context.database
        self.database = database
        clock = context.clock
        people = context.people
        controls = MessagingControls(family: context.family)
        let bodies = context.messageBodies
        self.bodies = bodies
        bell = RecipientBell(
            channel: Self.channel, pool: database, logger: context.logger, cursor: \.cursor,
            // The bell keys its streams by the text of the UserID `watch` gave it.
            read: readInbox
                ?? RecipientBell.keyed(by: { UserID($0) }) { after, limit in
                    try await MessageStore.received(after: after, limit: limit, bodies: bodies, on: database)
                })
        announcer = database.announcer(on: Self.channel)
    }
}
