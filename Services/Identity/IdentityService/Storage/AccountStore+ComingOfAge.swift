import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredPostgres

/// The SQL of the coming-of-age sweep.
extension AccountStore {
    /// An account whose band the sweep changed, and its new band.
    struct BandChange: Sendable, Equatable {
        let id: UserID
        let band: TokenClaims.AgeBand
    }

    /// Claims `day` for this sweep; false if it is already claimed (after waiting for a concurrent claim to
    /// commit or roll back).
    static func claimSweep(of day: CalendarDate, now: Date, on db: some StatementRunner) async throws -> Bool
    {
        let rows = try await db.query(
            """
            INSERT INTO identity.coming_of_age_runs (day, accounts_changed, swept_at)
            VALUES (\(day.description)::date, 0, \(now))
            ON CONFLICT (day) DO NOTHING RETURNING day
            """)
        return !rows.isEmpty
    }

    /// Records how many accounts the sweep of `day` changed.
    static func recordSweep(of day: CalendarDate, changed: Int, on db: some StatementRunner) async throws {
        try await db.query(
            """
            UPDATE identity.coming_of_age_runs SET accounts_changed = \(Int32(clamping: changed))
            WHERE day = \(day.description)::date
            """)
    }

    /// Moves each minor born on or before `sixteenIfBornBy` to 16-17, or to 18+ (controls off) when born on or
    /// before `adultIfBornBy`. Rows already in their band are untouched, so a second run changes nothing.
    static func rederiveMinorBands(
        sixteenIfBornBy sixteen: CalendarDate, adultIfBornBy adult: CalendarDate, on db: some StatementRunner
    ) async throws -> [BandChange] {
        let (sixteen, adult) = (sixteen.description, adult.description)
        let rows = try await db.query(
            """
            UPDATE identity.accounts
            SET age_band = CASE WHEN date_of_birth <= \(adult)::date THEN '18+' ELSE '16-17' END,
                parental_controls = parental_controls AND date_of_birth > \(adult)::date
            WHERE age_band <> '18+'
              AND ((age_band = '13-15' AND date_of_birth <= \(sixteen)::date)
                OR (age_band = '16-17' AND date_of_birth <= \(adult)::date))
            RETURNING id::text, age_band
            """)
        return try rows.map { row in
            let (id, band) = try row.decode((UserID, String).self)
            return BandChange(id: id, band: band == "18+" ? .adult : .sixteenToSeventeen)
        }
    }
}
