import KindredAuth
import KindredPostgres

/// The SQL of the compliance report.
extension AccountStore {
    /// The accounts of one age band.
    struct BandCount: Sendable, Equatable {
        let band: TokenClaims.AgeBand
        let accounts: Int
    }

    /// The refused under-13 registrations of one UTC day.
    struct RefusedDay: Sendable, Equatable {
        let day: CalendarDate
        let attempts: Int
    }

    /// How many accounts each age band holds; bands without accounts are absent.
    static func accountsPerBand(on db: some StatementRunner) async throws -> [TokenClaims.AgeBand: Int] {
        let rows = try await db.pureRead("SELECT age_band, count(*) FROM identity.accounts GROUP BY age_band")
        var counts: [TokenClaims.AgeBand: Int] = [:]
        for row in rows {
            let (band, count) = try row.decode((String, Int).self)
            counts[try value(band)] = count
        }
        return counts
    }

    /// Refused under-13 registrations per UTC day from `since` on, oldest first.
    static func refusedRegistrations(since: CalendarDate, on db: some StatementRunner) async throws
        -> [RefusedDay]
    {
        let rows = try await db.pureRead(
            """
            SELECT day::text, attempts FROM identity.refused_registrations
            WHERE day >= \(since.description)::date ORDER BY day
            """)
        return try rows.map { row in
            let (day, attempts) = try row.decode((String, Int).self)
            guard let date = CalendarDate(iso: day) else {
                throw PostgresError(
                    kind: .decoding, message: "identity.refused_registrations holds an unreadable day")
            }
            return RefusedDay(day: date, attempts: attempts)
        }
    }
}
