import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredRuntime

/// The coming-of-age sweep: once per UTC day, minors are moved to the band their date of birth gives today;
/// those who turned 18 lose their parental controls and `user.came_of_age` tells the family service. Their
/// next access token says `18+`, because tokens read the band from the account row.
///
/// Dates of birth are sealed, so SQL cannot compare them: the sweep walks the minors (band other than 18+) in
/// id order, a batch at a time, and opens each date here. Its cost follows the number of minors, not of
/// accounts (the `accounts_minors` index), and a stolen dump shows the band and nothing finer; keeping a coarse
/// date in the clear (a birth month, say) would have let SQL pick the few birthdays of the day, but would give
/// away most of every child's date of birth.
extension Accounts {
    /// What a sweep did.
    enum SweepOutcome: Sendable, Equatable {
        /// This call swept `day`: `changed` accounts moved band, `cameOfAge` of them to 18+.
        case swept(day: CalendarDate, changed: Int, cameOfAge: Int)
        /// `day` was already swept, by this instance or another.
        case alreadySwept(day: CalendarDate)
    }

    /// Minors a sweep reads at a time.
    static let sweepBatch = 1_000

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
            var changed: [AccountStore.BandChange] = []
            var cursor: UserID?
            repeat {
                let batch = try await AccountStore.minors(after: cursor, limit: Self.sweepBatch, on: tx)
                // The walk reads without locks; only a minor whose band moves is locked and read again, so a
                // date of birth changed meanwhile is the one the new band comes from.
                for minor in batch.minors where olderBand(of: minor, on: today) != nil {
                    guard let locked = try await AccountStore.lockedMinor(id: minor.id, in: tx),
                        let band = olderBand(of: locked, on: today)
                    else { continue }
                    try await AccountStore.moveBand(of: locked.id, to: band, in: tx)
                    changed.append(AccountStore.BandChange(id: locked.id, band: band))
                }
                cursor = batch.next
            } while cursor != nil
            let adults = changed.filter { $0.band == .adult }
            for adult in adults { try await emit(.cameOfAge(userID: adult.id), in: tx) }
            try await AccountStore.recordSweep(of: today, changed: changed.count, on: tx)
            return .swept(day: today, changed: changed.count, cameOfAge: adults.count)
        }
    }

    /// The band `minor`'s date of birth gives on `day` when it is older than the band the row holds; nil when
    /// the minor stays. A date that does not open is logged and the minor stays, rather than holding back
    /// every other minor's birthday.
    private func olderBand(of minor: AccountStore.Minor, on day: CalendarDate) -> TokenClaims.AgeBand? {
        let bornOn: CalendarDate
        do {
            bornOn = try birthDates.open(minor.dateOfBirth, at: .account(minor.id))
        } catch {
            logger.error(
                "coming-of-age sweep: date of birth unreadable",
                metadata: ["user_id": "\(minor.id)", "error": "\(error)"])
            return nil
        }
        guard let band = AgePolicy.band(bornOn: bornOn, on: day), band.isOlder(than: minor.band) else {
            return nil
        }
        return band
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
