import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// One thing a member did on a baby profile, as the part that did it describes it.
struct BabyActivityEntry: Sendable {
    let profile: BabyProfileID
    let kind: BabyActivityKind
    let actor: UserID
    /// What the entry is about: an event, a comment, an item, a photo, a member, as `kind` says.
    let subject: UUID?
    /// A short description kept with the entry (an event's or an item's name, a comment's start).
    let detail: String
    /// An RSVP's answer now, which gamification's counter of events attended follows.
    var rsvpAnswer: Kindred_Family_V1_RsvpAnswer = .unspecified
}

/// The names an activity entry's notices show: its actor's (empty when they wrote none) and its profile's.
typealias ActivityNames = (actor: String, profile: String)

/// A member about to record activity, as `BabyMembership.holdAuthor` read them: their role, and the names
/// their entries' notices show.
struct ActivityAuthor: Sendable {
    let role: BabyRole
    let names: ActivityNames
}

/// Where every change on a baby profile is recorded, in the transaction of the change: the profile's recent
/// activity (home), its live streams, its members' notices and the events other services consume all
/// start here, so a part that changes content calls `record` and nothing else.
enum BabyActivityLog {
    /// Records `entry` with the COMMIT of `tx`, in its round trip and in one statement
    /// (`BabyActivityStore.record`), its notices showing `names` (read when the change began, with the
    /// membership: `BabyMembership.holdAuthor`): the activity row, the notices of the members `kind` concerns
    /// (whatever their number), the entry on the activity feed the live streams tail, and the `WatchEvents`
    /// event its kind has, if any, with those `also` makes of the entry as recorded (`baby.arrived`). All of it
    /// commits or none of it. Returns the entry as recorded.
    @discardableResult
    static func record(
        _ entry: BabyActivityEntry, names: ActivityNames, at now: Date, seals: BabySeals,
        in tx: PostgresTransaction,
        also: (Kindred_Family_V1_BabyActivity) -> [Kindred_Family_V1_Event.OneOf_Payload] = { _ in [] }
    ) async throws -> Kindred_Family_V1_BabyActivity {
        let id = BabyActivityID(UUIDv7.generateUUID(at: now))
        let fanOut = entry.kind.audience.map { audience in
            let notice = entry.kind.notice(
                actor: names.actor.isEmpty ? "Someone" : names.actor, profile: names.profile,
                detail: entry.detail)
            return BabyNoticeStore.fanOut(
                notice, text: notice.sealedText(with: seals.cipher), to: audience, of: entry.profile,
                except: entry.actor, dedupKey: "baby_activity:\(id)", at: now)
        }
        let activity = Kindred_Family_V1_BabyActivity(entry, id: id, actorName: names.actor, at: now)
        let payloads =
            [entry.kind.event(activity, rsvpAnswer: entry.rsvpAnswer)].compactMap(\.self) + also(activity)
        BabyActivityStore.record(
            BabyActivityStore.insert(entry, id: id, at: now, seals: seals),
            feed: try BabyActivityFeed.insert(activity, sealedWith: seals.cipher),
            events: try payloads.map { try FamilyEvents.insert($0, sealedWith: seals.cipher) },
            fanOut: fanOut, in: tx)
        return activity
    }

    /// `record`, for a change whose names are read now, after what it changed (a profile named, a member
    /// joined): one statement before the COMMIT. NOT_FOUND when the profile is no longer active.
    @discardableResult
    static func record(
        _ entry: BabyActivityEntry, at now: Date, seals: BabySeals, in tx: PostgresTransaction
    ) async throws -> Kindred_Family_V1_BabyActivity {
        guard
            let names = try await BabyActivityStore.names(
                of: entry.actor, on: entry.profile, seals: seals, in: tx)
        else { throw FamilyError.babyProfileNotFound }
        return try await record(entry, names: names, at: now, seals: seals, in: tx)
    }
}
