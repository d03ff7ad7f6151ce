import FoundationEssentials
import KindredHandlers
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
}

/// Where every change on a baby profile is recorded, in the transaction of the change: the profile's recent
/// activity (home), its live streams, its members' notifications and the events other services consume all
/// start here, so a part that changes content calls `record` and nothing else.
enum BabyActivityLog {
    static func record(_ entry: BabyActivityEntry, at now: Date, in tx: PostgresTransaction) async throws {
        try await BabyActivityStore.insert(
            entry, id: BabyActivityID(UUIDv7.generateUUID(at: now)), at: now, in: tx)
    }
}
