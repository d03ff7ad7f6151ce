import KindredHandlers
import KindredPostgres

/// What `keys rotate-data` reads and writes of the sealed baby details (`BabySeals.Column`): each column's
/// rows in profile id order (both tables' primary key), and the re-sealing of one value.
enum BabySealStore {
    /// A value as stored: plaintext (written before sealing began) or sealed.
    typealias Stored = (profile: BabyProfileID, plain: String?, sealed: [UInt8]?)

    /// Where `column` lives, as trusted SQL: its table (aliased `a`), its plaintext as text (NULL once
    /// sealed), its sealed column, and the assignments that empty the plaintext.
    private static func place(of column: BabySeals.Column) -> (
        table: String, plain: String, sealed: String, clear: String
    ) {
        switch column {
        case .name: ("family.baby_profiles", "a.name", "name_sealed", "name = NULL")
        case .expectedBirthDate:
            (
                "family.baby_profiles", "a.expected_birth_date::text", "expected_birth_date_sealed",
                "expected_birth_date = NULL"
            )
        case .arrivalBirth:
            (
                "family.baby_arrivals", ArrivalStore.plainBirth, "birth_sealed",
                "birth_date = NULL, birth_time = NULL, weight_grams = NULL, length_mm = NULL"
            )
        case .arrivalMessage: ("family.baby_arrivals", "a.message", "message_sealed", "message = NULL")
        }
    }

    /// Up to `limit` rows of `column`'s table after `after` with a value, and the profile id the next batch
    /// starts after (nil at the end).
    static func values(
        of column: BabySeals.Column, after: BabyProfileID?, limit: Int, on db: some StatementRunner
    ) async throws -> (values: [Stored], next: BabyProfileID?) {
        let place = place(of: column)
        let rows = try await db.pureRead(
            """
            SELECT a.profile_id, \(unsafeSQL: place.plain), a.\(unsafeSQL: place.sealed)
            FROM \(unsafeSQL: place.table) a
            WHERE a.profile_id > coalesce(\(after)::uuid, '00000000-0000-0000-0000-000000000000')
            ORDER BY a.profile_id LIMIT \(limit)
            """)
        let values = try rows.map { try $0.decode((BabyProfileID, String?, [UInt8]?).self) }
        let next = rows.count < limit ? nil : values.last?.0
        return (values.map { ($0.0, $0.1, $0.2) }, next)
    }

    /// Replaces `stored` with `sealed`, unless the row changed since it was read (an owner's edit, or a
    /// rotation running twice).
    static func reseal(
        _ stored: Stored, as sealed: [UInt8], _ column: BabySeals.Column, in tx: PostgresTransaction
    ) async throws {
        let place = place(of: column)
        try await tx.query(
            """
            UPDATE \(unsafeSQL: place.table) a
            SET \(unsafeSQL: place.clear), \(unsafeSQL: place.sealed) = \(sealed)::bytea
            WHERE a.profile_id = \(stored.profile)::uuid
                AND \(unsafeSQL: place.plain) IS NOT DISTINCT FROM \(stored.plain)
                AND a.\(unsafeSQL: place.sealed) IS NOT DISTINCT FROM \(stored.sealed)::bytea
            """)
    }
}
