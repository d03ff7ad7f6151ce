import KindredPostgres

/// The one read the PIN and the controls make of `family.guardian_links` (whose writes belong to the
/// guardian-link part): whether a user guards a minor.
enum GuardianLinkReads {
    /// Whether `userID` is a guardian of `minorID`; both must be well-formed UUIDs.
    static func isGuardian(_ userID: String, of minorID: String, on tx: PostgresTransaction) async throws
        -> Bool
    {
        let rows = try await tx.query(
            """
            SELECT EXISTS (
                SELECT 1 FROM family.guardian_links WHERE minor_id = \(minorID)::uuid AND guardian_id = \(userID)::uuid)
            """)
        return try rows[0].decode(Bool.self, column: 0)
    }
}
