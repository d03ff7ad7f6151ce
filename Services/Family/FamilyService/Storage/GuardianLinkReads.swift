import KindredPostgres

/// The reads the PIN, the controls and approvals make of `family.guardian_links` (whose writes belong to the
/// guardian-link part): whether a user guards a minor, and who guards them.
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

    /// Whether `userID` is a guardian of `minorID`, holding the link until `tx` ends so that it cannot be
    /// removed under a decision taken as that guardian.
    static func holdLink(_ userID: String, of minorID: String, in tx: PostgresTransaction) async throws
        -> Bool
    {
        try await !tx.query(
            """
            SELECT 1 FROM family.guardian_links
            WHERE minor_id = \(minorID)::uuid AND guardian_id = \(userID)::uuid FOR SHARE
            """
        ).isEmpty
    }

    /// The guardians of `minorID`, oldest link first.
    static func guardians(of minorID: String, in tx: PostgresTransaction) async throws -> [String] {
        try await tx.query(
            """
            SELECT guardian_id::text FROM family.guardian_links
            WHERE minor_id = \(minorID)::uuid ORDER BY created_at, id
            """
        ).decode(String.self)
    }
}
