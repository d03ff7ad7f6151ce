import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredPostgres

/// The SQL that changes an existing account.
extension AccountStore {
    /// Marks the email verified at `now`; false if it already was (or the account is gone).
    static func markEmailVerified(id: UserID, now: Date, on db: some StatementRunner) async throws -> Bool {
        let rows = try await db.query(
            """
            UPDATE identity.accounts SET email_verified_at = \(now)
            WHERE id = \(id) AND email_verified_at IS NULL
            """)
        return rows.affectedRows == 1
    }

    /// Applies a confirmed date of birth, sealed by `dates`: the band it gives today, assured now by a verified
    /// change. Parental controls go off for an adult and on for an adult corrected to a minor; a minor who
    /// stays one keeps what their family set, as the sweep does. Returns the band the account had before.
    static func changeDateOfBirth(
        id: UserID, to dateOfBirth: CalendarDate, band: TokenClaims.AgeBand, now: Date, dates: BirthDates,
        on db: some StatementRunner
    ) async throws -> TokenClaims.AgeBand? {
        let sealedBirth = dates.seal(dateOfBirth, at: .account(id))
        // The self-join reads the row as it was before this UPDATE changed it.
        let rows = try await db.query(
            """
            UPDATE identity.accounts new SET date_of_birth = NULL, date_of_birth_sealed = \(sealedBirth)::bytea,
                age_band = \(band.rawValue),
                parental_controls = \(band.isMinor) AND (old.parental_controls OR old.age_band = '18+'),
                age_assurance_method = 'verified_change', age_assured_at = \(now)
            FROM identity.accounts old
            WHERE new.id = \(id) AND old.id = new.id
            RETURNING old.age_band
            """)
        guard let before = try rows.first?.decode(String.self, column: 0) else { return nil }
        return try value(before, row: id)
    }

    /// Deletes the account; its email tokens and refresh tokens go with it (ON DELETE CASCADE).
    static func delete(id: UserID, on db: some StatementRunner) async throws -> Bool {
        try await db.query("DELETE FROM identity.accounts WHERE id = \(id)").affectedRows == 1
    }
}
