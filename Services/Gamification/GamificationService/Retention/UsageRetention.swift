import FoundationEssentials
import KindredHandlers
import KindredPostgres
import KindredRuntime
import Logging

/// The retention rule for usage: a deleted account's usage is permanently removed within `days` of the
/// deletion. Identity's `user.deleted` erases it at once (`AccountEvents`); but an access token issued before
/// the deletion stays valid until it expires, and an upload made with it would store usage again. So the
/// erased accounts are remembered for `days`, and a daily job, run once across instances, removes any usage
/// they have, then forgets those erased longer ago than that (their tokens expired long before).
struct UsageRetention: Sendable {
    static let days = 30

    let database: PostgresPool
    let clock: WallClock
    let logger: Logger

    init(context: GamificationContext) {
        database = context.database
        clock = context.clock
        logger = context.logger
    }

    /// The daily job, its claims in `gamification.daily_jobs`.
    var job: DailyJob {
        DailyJob(
            name: "usage retention", schema: "gamification", pool: database, logger: logger,
            now: { [clock] in clock.now }, work: { now in try await purge(at: now) })
    }

    /// Removes the usage of every remembered account and forgets those erased more than `days` ago; what it
    /// removed.
    func purge(at now: Date) async throws -> [String: Int] {
        try await database.transaction { tx in
            let erased = try await ErasedAccountStore.all(in: tx)
            let sessions = erased.isEmpty ? 0 : try await UsageStore.deleteAll(of: erased, in: tx)
            let forgotten = try await ErasedAccountStore.forget(erasedDaysBefore: Self.days, now: now, in: tx)
            return ["usage_sessions_removed": sessions, "erased_accounts_forgotten": forgotten]
        }
    }
}
