import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredPostgres

/// The SQL of `family.guardian_invitations`: the links minors mail to would-be guardians, each token kept only
/// as its SHA-256 and each address sealed (`InvitationEmails`), opened as rows are read.
enum GuardianInvitationStore {
    /// One invitation as stored.
    struct Invitation: Sendable, Equatable {
        let id: GuardianInvitationID
        let minorID: UserID
        let requestID: String
        let guardianEmail: String
        let createdAt: Date
        let expiresAt: Date
        let acceptedBy: UserID?
    }

    /// An invitation as its link's acceptance reads it.
    struct Redemption: Sendable, Equatable {
        let id: GuardianInvitationID
        let minorID: UserID
        let expiresAt: Date
        let acceptedBy: UserID?
    }

    /// `minor`'s invitation made by the request `requestID`, if any.
    static func invitation(
        minor: UserID, requestID: String, emails: SealedText<GuardianInvitationID>, in tx: PostgresTransaction
    ) async throws -> Invitation? {
        try decode(
            emails,
            await tx.query(
                """
                SELECT id::text, minor_id::text, request_id, guardian_email, guardian_email_sealed, created_at,
                    expires_at, accepted_by::text
                FROM family.guardian_invitations WHERE minor_id = \(minor)::uuid AND request_id = \(requestID)
                """)
        ).first
    }

    /// What accepting the invitation `token` was mailed with needs of it, used or not, if any: not its address,
    /// which stays sealed.
    static func redemption(token: OpaqueToken, on db: some StatementRunner) async throws -> Redemption? {
        try await db.pureRead(
            """
            SELECT id::text, minor_id::text, expires_at, accepted_by::text
            FROM family.guardian_invitations WHERE token_hash = \(token.storageHash)
            """
        ).decode((GuardianInvitationID, UserID, Date, UserID?).self).first.map {
            Redemption(id: $0, minorID: $1, expiresAt: $2, acceptedBy: $3)
        }
    }

    /// `minor`'s invitations neither accepted nor expired at `now`, oldest first.
    static func pending(
        minor: UserID, now: Date, emails: SealedText<GuardianInvitationID>, on db: some StatementRunner
    )
        async throws -> [Invitation]
    {
        try decode(
            emails,
            await db.pureRead(
                """
                SELECT id::text, minor_id::text, request_id, guardian_email, guardian_email_sealed, created_at,
                    expires_at, accepted_by::text
                FROM family.guardian_invitations
                WHERE minor_id = \(minor)::uuid AND accepted_at IS NULL AND expires_at > \(now)
                ORDER BY created_at, id
                """))
    }

    /// `minor`'s invitations made after `since`, oldest first: what the invitation rate limits count.
    static func made(
        by minor: UserID, since: Date, emails: SealedText<GuardianInvitationID>, in tx: PostgresTransaction
    ) async throws -> [Invitation] {
        try decode(
            emails,
            await tx.query(
                """
                SELECT id::text, minor_id::text, request_id, guardian_email, guardian_email_sealed, created_at,
                    expires_at, accepted_by::text
                FROM family.guardian_invitations WHERE minor_id = \(minor)::uuid AND created_at > \(since)
                ORDER BY created_at, id
                """))
    }

    /// Stores `invitation` with the hash of `token` and its address sealed; the invitations it supersedes (the
    /// minor's pending ones to the same address) expire now, so only the newest link works.
    static func insert(
        _ invitation: Invitation, token: OpaqueToken, superseding: [Invitation],
        emails: SealedText<GuardianInvitationID>,
        in tx: PostgresTransaction
    ) async throws {
        if !superseding.isEmpty {
            try await tx.query(
                """
                UPDATE family.guardian_invitations SET expires_at = \(invitation.createdAt)
                WHERE id = ANY(\(PostgresArray(superseding.map(\.id)))::uuid[]) AND accepted_at IS NULL
                    AND expires_at > \(invitation.createdAt)
                """)
        }
        try await tx.query(
            """
            INSERT INTO family.guardian_invitations
                (id, minor_id, request_id, guardian_email_sealed, token_hash, created_at, expires_at)
            VALUES (\(invitation.id)::uuid, \(invitation.minorID)::uuid, \(invitation.requestID),
                \(emails.seal(invitation.guardianEmail, of: invitation.id))::bytea, \(token.storageHash),
                \(invitation.createdAt), \(invitation.expiresAt))
            """)
    }

    /// Marks `id` accepted by `guardian` at `now`.
    static func markAccepted(
        _ id: GuardianInvitationID, by guardian: UserID, now: Date, in tx: PostgresTransaction
    )
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

    private static func decode(_ emails: SealedText<GuardianInvitationID>, _ rows: PostgresRows) throws
        -> [Invitation]
    {
        try rows.map { row in
            let (id, minor, requestID, plain, sealed, createdAt, expiresAt, acceptedBy) = try row.decode(
                (GuardianInvitationID, UserID, String, String?, [UInt8]?, Date, Date, UserID?).self)
            return Invitation(
                id: id, minorID: minor, requestID: requestID,
                guardianEmail: try emails.open(StoredText(plain: plain, sealed: sealed), of: id),
                createdAt: createdAt, expiresAt: expiresAt, acceptedBy: acceptedBy)
        }
    }
}
