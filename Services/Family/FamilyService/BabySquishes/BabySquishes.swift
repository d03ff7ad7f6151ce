import KindredHandlers
import KindredPostgres

/// `SquishPhoto`, `UnsquishPhoto`, `SquishArrival`, `UnsquishArrival`: every member squishes a photo or the
/// announcement once; squishing again changes nothing, and a squish can be taken back.
struct BabySquishes: Sendable {
    let database: PostgresPool
    let clock: WallClock
    /// Opens the profile's sealed name for the notices the activity log posts.
    let seals: BabySeals

    /// Sets whether `user` squishes `target` on `profile`; the count afterwards. Squishes of one target take
    /// its row's lock first (`SquishStore.set`), so concurrent squishes (by one person or many) count exactly
    /// once each. Only a change is recorded on the activity log (owners hear of a squish;
    /// `photo.squished`/`photo.unsquished` go out on WatchEvents).
    func set(_ target: SquishTarget, of profile: BabyProfileID, by user: UserID, squished: Bool) async throws
        -> Int
    {
        let now = clock.now
        return try await database.transaction { tx in
            guard
                let change = try await SquishStore.set(
                    target, of: profile, by: user, squished: squished, at: now, seals: seals, in: tx)
            else { throw FamilyError.babyProfileNotFound }
            guard let count = change.count else { throw target.notFound }
            if change.changed, let kind = target.activity(squished: squished) {
                try await BabyActivityLog.record(
                    BabyActivityEntry(
                        profile: profile, kind: kind, actor: user, subject: target.subject?.uuid, detail: ""),
                    names: change.author.names, at: now, seals: seals, in: tx)
            }
            return count
        }
    }
}
