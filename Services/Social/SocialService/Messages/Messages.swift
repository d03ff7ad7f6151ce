import KindredPostgres
import KindredRuntime

/// Direct messages: sending under blocks and parental controls, the caller's conversations and their
/// messages, and the stream of what the caller receives. Each rule takes the caller's id explicitly, so it
/// is tested without a server; the RPC handlers only translate. Rules are in `Messages+*.swift`, their SQL in
/// `MessageStore*.swift`.
struct Messages: Sendable {
    let database: PostgresPool
    let clock: WallClock
    let people: PeopleDirectory
    let controls: MessagingControls
    /// Wakes the `WatchMessages` streams; closed at the drain.
    let bell: MessageBell

    init(context: SocialContext) {
        database = context.database
        clock = context.clock
        people = context.people
        controls = MessagingControls(family: context.family)
        bell = MessageBell(pool: context.database, logger: context.logger)
    }
}
