import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredRuntime
import Logging

/// The retention rule for baby profiles: a deleted profile's content (by an owner's delete, or when its last
/// owner's account goes) is kept for `years`, unreadable by anyone, then purged by a daily job that runs once
/// across instances. The purge removes the profile's rows; its photos' bytes, no longer named by any row, go
/// with the gallery's next orphan sweep; `baby_profile.purged`, in the purge's transaction, tells the services
/// that keep rows of the profile (gamification's games) to purge theirs.
struct BabyRetention: Sendable {
    static let years = 7
    /// Profiles purged per transaction, so a backlog never holds one long transaction.
    static let batch = 100

    let database: PostgresPool
    /// Family's data keys, which seal the `baby_profile.purged` events.
    let cipher: FieldCipher
    let clock: WallClock
    let logger: Logger

    init(context: FamilyContext) {
        database = context.database
        cipher = context.cipher
        clock = context.clock
        logger = context.logger
    }

    /// The daily job, its claims in `family.daily_jobs`.
    var job: DailyJob {
        DailyJob(
            name: "baby profile retention", schema: "family", pool: database, logger: logger,
            now: { [clock] in clock.now },
            work: { now in ["profiles_purged": try await purge(at: now)] })
    }

    /// Purges every profile deleted more than `years` before `now`; how many.
    func purge(at now: Date) async throws -> Int {
        var purged = 0
        while true {
            let done = try await database.transaction { tx in
                let profiles = try await BabyRetentionStore.purge(
                    deletedYearsBefore: Self.years, now: now, limit: Self.batch, in: tx)
                for profile in profiles {
                    try await FamilyEvents.append(
                        .babyProfilePurged(.init(profileID: profile.description)), sealedWith: cipher, in: tx)
                }
                return profiles.count
            }
            purged += done
            if done < Self.batch { return purged }
        }
    }
}
