import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredPostgres

/// The SQL of `family.guardian_sessions`: the sessions a right PIN opens, kept only as SHA-256 of the token.
enum GuardianSessionStore {
    /// A session as stored.
    struct Found: Sendable {
        let openedBy: UserID
        let expiresAt: Date
    }

    /// Opens a session on `minorID` for `openedBy` until `expiresAt`, and forgets the minor's expired ones.
    static func open(
        _ minorID: UserID, openedBy: UserID, now: Date, expiresAt: Date, on tx: PostgresTransaction
    ) async throws -> OpaqueToken {
        let token = OpaqueToken.generate()
        try await tx.query(
            "DELETE FROM family.guardian_sessions WHERE minor_id = \(minorID)::uuid AND expires_at <= \(now)")
        try await tx.query(
            """
            INSERT INTO family.guardian_sessions (token_hash, minor_id, opened_by, created_at, expires_at)
            VALUES (\(token.storageHash), \(minorID)::uuid, \(openedBy)::uuid, \(now), \(expiresAt))
            """)
        return token
    }

    /// The session `token` names on `minorID`, expired or not; nil when there is none on that minor.
    static func find(_ token: OpaqueToken, minorID: UserID, on tx: PostgresTransaction) async throws -> Found?
    {
        let rows = try await tx.query(
            """
            SELECT opened_by::text, expires_at FROM family.guardian_sessions
            WHERE token_hash = \(token.storageHash) AND minor_id = \(minorID)::uuid
            """)
        guard let row = rows.first else { return nil }
        let (openedBy, expiresAt) = try row.decode((UserID, Date).self)
        return Found(openedBy: openedBy, expiresAt: expiresAt)
    }

    /// Ends every session on `minorID`: its PIN was reset, so what the old PIN opened closes.
    static func endAll(_ minorID: UserID, on tx: PostgresTransaction) async throws {
        try await tx.query("DELETE FROM family.guardian_sessions WHERE minor_id = \(minorID)::uuid")
    }
}
