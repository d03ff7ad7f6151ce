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
    /// Social's data keys, which seal the events it appends.
    let cipher: FieldCipher
    let clock: WallClock
    let people: PeopleDirectory
    let family: FamilyGate

    init(context: SocialContext) {
        database = context.database
        cipher = context.cipher
        clock = context.clock
        people = context.people
        family = context.family
    }

}

/// Who is asking about events: a person with an account, and whether their guardian's controls may apply
/// (the token's `pc` claim), which is the only case in which family is asked anything.
struct EventViewer: Sendable {
    let id: UserID
    /// The token says parental controls are on: a rule that could refuse asks family for them.
    let controlled: Bool
    /// 13–17: their join of a public event is told to their guardians.
    let isMinor: Bool

    /// The viewer `caller` is; a service token, which names nobody, is refused.
    init(_ caller: Caller) throws(RPCError) {
        guard let id = caller.accountUserID else { throw SocialError.accountRequired }
        self.id = id
        controlled = caller.parentalControls
        isMinor = caller.isMinor
    }

    func organizes(_ event: EventRecord) -> Bool { UserID(event.organizer.userID) == id }
}
