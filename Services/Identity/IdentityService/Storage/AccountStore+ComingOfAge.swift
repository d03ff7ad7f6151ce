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

    /// A minor as the sweep reads it: the band the row holds and the date of birth as stored.
    struct Minor: Sendable {
        let id: UserID
        let band: TokenClaims.AgeBand
        let dateOfBirth: StoredBirthDate
    }

    /// Up to `limit` minors (band other than 18+) after `after` in id order, read through the `accounts_minors`
    /// index so a walk costs the minors and never the adults; and the id the next batch starts after (nil at
    /// the end).
    static func minors(after: UserID?, limit: Int, on db: some StatementRunner) async throws
        -> (minors: [Minor], next: UserID?)
    {
        let rows = try await db.query(
            """
            SELECT id::text, age_band, date_of_birth::text, date_of_birth_sealed FROM identity.accounts
            WHERE age_band <> '18+' AND id > coalesce(\(after)::uuid, '00000000-0000-0000-0000-000000000000')
            ORDER BY id LIMIT \(limit)
            """)
        let minors = try rows.map(minor)
        return (minors, minors.count < limit ? nil : minors.last?.id)
    }

    /// Minor `id` as it is now, its row locked until the transaction ends, so no change of its date of birth
    /// commits between reading the date and moving the band; nil if it is gone or no longer a minor.
    static func lockedMinor(id: UserID, in tx: PostgresTransaction) async throws -> Minor? {
        let rows = try await tx.query(
            """
            SELECT id::text, age_band, date_of_birth::text, date_of_birth_sealed FROM identity.accounts
            WHERE id = \(id) AND age_band <> '18+' FOR UPDATE
            """)
        return try rows.first.map(minor)
    }

    /// Moves minor `id` to the older `band`; parental controls go off at 18+ and otherwise stay as set.
    static func moveBand(of id: UserID, to band: TokenClaims.AgeBand, in tx: PostgresTransaction) async throws
    {
        try await tx.query(
            """
            UPDATE identity.accounts
            SET age_band = \(band.rawValue), parental_controls = parental_controls AND \(band.isMinor)
            WHERE id = \(id)
            """)
    }

    private static func minor(_ row: PostgresRow) throws -> Minor {
        let (id, band, birth, sealedBirth) = try row.decode((UserID, String, String?, [UInt8]?).self)
        return Minor(
            id: id, band: try value(band, row: id),
            dateOfBirth: StoredBirthDate(plain: birth, sealed: sealedBirth))
    }
}
