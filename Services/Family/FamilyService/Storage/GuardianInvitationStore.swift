import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredPostgres

/// The SQL of `family.guardian_invitations`: the links minors mail to would-be guardians, each token kept only
/// as its SHA-256.
enum GuardianInvitationStore {
    /// One invitation as stored.
    struct Invitation: Sendable, Equatable {
        let id: String
        let minorID: UserID
        let requestID: String
        let guardianEmail: String
        let createdAt: Date
        let expiresAt: Date
        let acceptedBy: UserID?
    }

    /// `minor`'s invitation made by the request `requestID`, if any.
    static func invitation(minor: UserID, requestID: String, in tx: PostgresTransaction) async throws
        -> Invitation?
    {
        try decode(
            await tx.query(
                """
                SELECT id::text, minor_id::text, request_id, guardian_email, created_at, expires_at,
                    accepted_by::text
                FROM family.guardian_invitations WHERE minor_id = \(minor)::uuid AND request_id = \(requestID)
                """)
        ).first
    }

    /// The invitation `token` was mailed with, used or not, if any.
    static func invitation(token: OpaqueToken, on db: some StatementRunner) async throws -> Invitation? {
        try decode(
            await db.pureRead(
                """
                SELECT id::text, minor_id::text, request_id, guardian_email, created_at, expires_at,
                    accepted_by::text
                FROM family.guardian_invitations WHERE token_hash = \(token.storageHash)
                """)
        ).first
    }

    /// `minor`'s invitations neither accepted nor expired at `now`, oldest first.
    static func pending(minor: UserID, now: Date, on db: some StatementRunner) async throws -> [Invitation] {
        try decode(
            await db.pureRead(
                """
                SELECT id::text, minor_id::text, request_id, guardian_email, created_at, expires_at,
                    accepted_by::text
                FROM family.guardian_invitations
                WHERE minor_id = \(minor)::uuid AND accepted_at IS NULL AND expires_at > \(now)
                ORDER BY created_at, id
                """))
    }

    /// When `minor` last invited `email` (ignoring case), and when the oldest of their invitations since
    /// `since` was made, with how many there are: what the invitation rate limits need.
    static func recent(minor: UserID, email: String, since: Date, in tx: PostgresTransaction) async throws
        -> (lastToAddress: Date?, oldest: Date?, count: Int)
    {
        let rows = try await tx.query(
            """
            SELECT max(created_at) FILTER (WHERE lower(guardian_email) = lower(\(email))),
                min(created_at) FILTER (WHERE created_at > \(since)),
                count(*) FILTER (WHERE created_at > \(since))
            FROM family.guardian_invitations WHERE minor_id = \(minor)::uuid
            """)
        let (last, oldest, count) = try rows[0].decode((Date?, Date?, Int64).self)
        return (last, oldest, Int(count))
    }

    /// Stores `invitation` with the hash of `token`; any pending invitation of the minor to the same address
    /// expires now, so only the newest link works.
    static func insert(_ invitation: Invitation, token: OpaqueToken, in tx: PostgresTransaction) async throws
    {
        try await tx.query(
            """
            UPDATE family.guardian_invitations SET expires_at = \(invitation.createdAt)
            WHERE minor_id = \(invitation.minorID)::uuid AND accepted_at IS NULL
                AND expires_at > \(invitation.createdAt)
                AND lower(guardian_email) = lower(\(invitation.guardianEmail))
            """)
        try await tx.query(
            """
            INSERT INTO family.guardian_invitations
                (id, minor_id, request_id, guardian_email, token_hash, created_at, expires_at)
            VALUES (\(invitation.id)::uuid, \(invitation.minorID)::uuid, \(invitation.requestID),
                \(invitation.guardianEmail), \(token.storageHash), \(invitation.createdAt), \(invitation.expiresAt))
            """)
    }

    /// Marks `id` accepted by `guardian` at `now`.
    static func markAccepted(_ id: String, by guardian: UserID, now: Date, in tx: PostgresTransaction)
        async throws
    {
        try await tx.query(
            """
            UPDATE family.guardian_invitations SET accepted_at = \(now), accepted_by = \(guardian)::uuid
            WHERE id = \(id)::uuid
            """)
    }

    /// Ends every pending invitation of `minor` at `now` (the minor came of age).
    static func expirePending(minor: UserID, now: Date, in tx: PostgresTransaction) async throws {
        try await tx.query(
            """
            UPDATE family.guardian_invitations SET expires_at = \(now)
            WHERE minor_id = \(minor)::uuid AND accepted_at IS NULL AND expires_at > \(now)
            """)
    }

    /// Deletes the invitations `user` sent or accepted.
    static func deleteAll(of user: UserID, in tx: PostgresTransaction) async throws {
        try await tx.query(
            """
            DELETE FROM family.guardian_invitations
            WHERE minor_id = \(user)::uuid OR accepted_by = \(user)::uuid
            """)
    }

    private static func decode(_ rows: PostgresRows) throws -> [Invitation] {
        try rows.map { row in
            let (id, minor, requestID, email, createdAt, expiresAt, acceptedBy) = try row.decode(
                (String, UserID, String, String, Date, Date, UserID?).self)
            return Invitation(
                id: id, minorID: minor, requestID: requestID, guardianEmail: email, createdAt: createdAt,
                expiresAt: expiresAt, acceptedBy: acceptedBy)
        }
    }
}
