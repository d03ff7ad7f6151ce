import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredRuntime

/// The coming-of-age sweep: once per UTC day, minors are moved to the band their date of birth gives today;
/// those who turned 18 lose their parental controls and `user.came_of_age` tells the family service. Their
/// next access token says `18+`, because tokens read the band from the account row.
extension Accounts {
    /// What a sweep did.
    enum SweepOutcome: Sendable, Equatable {
        /// This call swept `day`: `changed` accounts moved band, `cameOfAge` of them to 18+.
        case swept(day: CalendarDate, changed: Int, cameOfAge: Int)
        /// `day` was already swept, by this instance or another.
        case alreadySwept(day: CalendarDate)
    }

    /// Sweeps today (UTC) unless some instance already has. Instances agree through the day's row in
    /// `identity.coming_of_age_runs`: the first insert claims the day, a concurrent one waits for it to commit
    /// and then finds the day taken, and a sweep that fails rolls its claim back with its changes.
    func sweepComingOfAge() async throws -> SweepOutcome {
        let now = clock.now
        let today = CalendarDate(utcDayOf: now)
        return try await database.transaction { tx in
            guard try await AccountStore.claimSweep(of: today, now: now, on: tx) else {
                return .alreadySwept(day: today)
            }
            let changed = try await AccountStore.rederiveMinorBands(
                sixteenIfBornBy: AgePolicy.latestBirthDate(forAge: 16, on: today),
                adultIfBornBy: AgePolicy.latestBirthDate(forAge: 18, on: today), on: tx)
            let adults = changed.filter { $0.band == .adult }
            for adult in adults { try await emit(.cameOfAge(userID: adult.id), in: tx) }
            try await AccountStore.recordSweep(of: today, changed: changed.count, on: tx)
            return .swept(day: today, changed: changed.count, cameOfAge: adults.count)
        }
    }

    /// Sweeps hourly until the drain: checking more often than daily costs one statement and means a new day
    /// is swept within the hour after midnight UTC.
    func runComingOfAgeSweeps() async {
        await runHourly("coming-of-age sweep", logger: logger) {
            if case .swept(let day, let changed, let cameOfAge) = try await sweepComingOfAge() {
                logger.info(
                    "coming-of-age sweep done",
                    metadata: ["day": "\(day)", "changed": "\(changed)", "came_of_age": "\(cameOfAge)"])
            }
        }
    }
}
