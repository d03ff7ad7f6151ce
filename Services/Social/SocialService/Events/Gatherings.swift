import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredRPC

/// Events people organize (`social.events`), who may see and join them, and the feed: "gatherings" here, so
/// that they are never taken for the outbox's events. A caller may see an event they organize, a public one,
/// or a private one whose organizer is their friend or invited them, and never one across a block with its
/// organizer. Each rule takes the caller explicitly, so it is tested below the RPCs too; the handlers only
/// translate. Rules are in `Gatherings+*.swift`, their SQL in `Event*Store*.swift`.
struct Gatherings: Sendable {
    let database: PostgresPool
    let clock: WallClock
    let people: PeopleDirectory
    let family: FamilyGate

    init(context: SocialContext) {
        database = context.database
        clock = context.clock
        people = context.people
        family = context.family
    }

    /// `text` as the id (a UUID, lower-cased) that `field` must hold, or INVALID_ARGUMENT naming the field.
    static func id(_ text: String, field: String) throws(RPCError) -> String {
        if text.isEmpty { throw FieldViolations.single(field, "is required") }
        guard UUIDv7.isWellFormed(text) else { throw FieldViolations.single(field, "must be a UUID") }
        return text.lowercased()
    }
}

/// Who is asking about events: a person with an account, and whether their guardian's controls may apply
/// (the token's `pc` claim), which is the only case in which family is asked anything.
struct EventViewer: Sendable {
    let id: String
    /// The token says parental controls are on: a rule that could refuse asks family for them.
    let controlled: Bool
    /// 13–17: their join of a public event is told to their guardians.
    let isMinor: Bool

    /// The viewer `caller` is; a service token, which names nobody, is refused.
    init(_ caller: Caller) throws(RPCError) {
        guard let id = caller.accountID else { throw SocialError.accountRequired }
        self.id = id
        controlled = caller.parentalControls
        isMinor = caller.isMinor
    }

    func organizes(_ event: EventRecord) -> Bool { event.organizer.userID == id }
}
