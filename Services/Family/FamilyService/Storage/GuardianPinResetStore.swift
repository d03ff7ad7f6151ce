import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredPostgres

/// The SQL of `family.guardian_pin_resets`: mailed PIN reset links, kept only as SHA-256 of the token.
enum GuardianPinResetStore {
    /// A live reset: the minor whose PIN it sets, the guardian who asked, and where the link went.
    struct Reset: Sendable {
        let minorID: UserID
        let guardianID: UserID
        let email: String
    }

    /// Used links are kept this long after they expire, so that a late click still hears "already used".
    static let retention: Duration = .seconds(30 * 24 * 3_600)

    /// Whether a reset of `minorID` is pending at `now` (`family.open_pin_resets` says which links count).
    static func isPending(_ minorID: UserID, now: Date, on tx: PostgresTransaction) async throws -> Bool {
        let rows = try await tx.query(
            """
            SELECT EXISTS (
                SELECT 1 FROM family.open_pin_resets WHERE minor_id = \(minorID)::uuid AND expires_at > \(now))
            """)
        return try rows[0].decode(Bool.self, column: 0)
    }

    /// Stores a new reset link of `minorID` valid until `expiresAt`, retiring the minor's older ones (a new
    /// request replaces the previous link) and forgetting those past retention; returns the token to mail.
    static func issue(
        _ minorID: UserID, guardianID: UserID, email: String, now: Date, expiresAt: Date,
        on tx: PostgresTransaction
    ) async throws -> OpaqueToken {
        let token = OpaqueToken.generate()
        let forgotten = now.addingTimeInterval(-Double(retention.components.seconds))
        try await tx.query(
            """
            DELETE FROM family.guardian_pin_resets WHERE minor_id = \(minorID)::uuid AND expires_at < \(forgotten)
            """)
        try await retire(minorID, now: now, on: tx)
        try await tx.query(
            """
            INSERT INTO family.guardian_pin_resets (token_hash, minor_id, guardian_id, email, created_at, expires_at)
            VALUES (\(token.storageHash), \(minorID)::uuid, \(guardianID)::uuid, \(email), \(now), \(expiresAt))
            """)
        return token
    }

    /// The reset `token` opens if it is unused and unexpired at `now`; the link stays usable.
    static func live(_ token: OpaqueToken, now: Date, on tx: PostgresTransaction) async throws -> Reset? {
        try reset(
            from: try await tx.query(
                """
                SELECT minor_id::text, guardian_id::text, email FROM family.guardian_pin_resets
                WHERE token_hash = \(token.storageHash) AND used_at IS NULL AND expires_at > \(now)
                """))
    }

    /// Uses `token` up if it is unused and unexpired at `now`. The UPDATE's row lock makes it single-use under
    /// concurrent redemptions: the second waits, then finds it used.
    static func redeem(_ token: OpaqueToken, now: Date, on tx: PostgresTransaction) async throws -> Reset? {
        try reset(
            from: try await tx.query(
                """
                UPDATE family.guardian_pin_resets SET used_at = \(now)
                WHERE token_hash = \(token.storageHash) AND used_at IS NULL AND expires_at > \(now)
                RETURNING minor_id::text, guardian_id::text, email
                """))
    }

    /// Why `token`, not live, cannot be used: unknown, used (or replaced), or else expired.
    static func problem(of token: OpaqueToken, on tx: PostgresTransaction) async throws
        -> FamilyError.LinkProblem
    {
        let rows = try await tx.query(
            "SELECT used_at IS NOT NULL FROM family.guardian_pin_resets WHERE token_hash = \(token.storageHash)"
        )
        guard let used = try rows.first?.decode(Bool.self, column: 0) else { return .unknown }
        return used ? .used : .expired
    }

    /// Marks every unused reset link of `minorID` used: a newer one replaces them, or the PIN was reset.
    static func retire(_ minorID: UserID, now: Date, on tx: PostgresTransaction) async throws {
        try await tx.query(
            """
            UPDATE family.guardian_pin_resets SET used_at = \(now)
            WHERE minor_id = \(minorID)::uuid AND used_at IS NULL
            """)
    }

    private static func reset(from rows: PostgresRows) throws -> Reset? {
        guard let row = rows.first else { return nil }
        let (minorID, guardianID, email) = try row.decode((UserID, UserID, String).self)
        return Reset(minorID: minorID, guardianID: guardianID, email: email)
    }
}
