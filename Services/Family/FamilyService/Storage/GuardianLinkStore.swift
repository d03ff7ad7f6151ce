import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The SQL of `family.guardian_links`: who guards whom.
enum GuardianLinkStore {
    /// One link as stored.
    struct Link: Sendable, Equatable {
        let id: GuardianLinkID
        let minorID: UserID
        let guardianID: UserID
        let createdAt: Date
    }

    /// Whether `guardian` guards `minor`: one probe of the (minor, guardian) unique index. False for an id
    /// that is not a user id (a service's client id).
    static func exists(guardian: UserID, minor: UserID, on db: some StatementRunner) async throws -> Bool {
        let rows = try await db.pureRead(
            """
            SELECT EXISTS (SELECT 1 FROM family.guardian_links
                WHERE minor_id = \(minor)::uuid AND guardian_id = \(guardian)::uuid)
            """)
        return try rows[0].decode(Bool.self, column: 0)
    }

    /// Whether `guardian` guards `minor`, holding the link (`FOR SHARE`) until `tx` ends, so that it cannot be
    /// removed under a decision taken as that guardian.
    static func hold(guardian: UserID, minor: UserID, in tx: PostgresTransaction) async throws -> Bool {
        return try await !tx.query(
            """
            SELECT 1 FROM family.guardian_links
            WHERE minor_id = \(minor)::uuid AND guardian_id = \(guardian)::uuid FOR SHARE
            """
        ).isEmpty
    }

    /// The user ids of `minor`'s guardians, oldest link first; none for an id that is not a user id.
    static func guardianIDs(ofMinor minor: UserID, on db: some StatementRunner) async throws -> [UserID] {
        return try await db.pureRead(
            """
            SELECT guardian_id::text FROM family.guardian_links
            WHERE minor_id = \(minor)::uuid ORDER BY created_at, id
            """
        ).map { try $0.decode(UserID.self, column: 0) }
    }

    /// `minor`'s links, oldest first; none for an id that is not a user id.
    static func links(ofMinor minor: UserID, on db: some StatementRunner) async throws -> [Link] {
        return try decode(
            await db.pureRead(
                """
                SELECT id::text, minor_id::text, guardian_id::text, created_at FROM family.guardian_links
                WHERE minor_id = \(minor)::uuid ORDER BY created_at, id
                """))
    }

    /// The links `user` is on, as the minor or as the guardian, oldest first.
    static func links(of user: UserID, on db: some StatementRunner) async throws -> [Link] {
        try decode(
            await db.pureRead(
                """
                SELECT id::text, minor_id::text, guardian_id::text, created_at FROM family.guardian_links
                WHERE minor_id = \(user)::uuid OR guardian_id = \(user)::uuid ORDER BY created_at, id
                """))
    }

    /// The link with `id`, if there is one.
    static func link(_ id: GuardianLinkID, on db: some StatementRunner) async throws -> Link? {
        try decode(
            await db.pureRead(
                """
                SELECT id::text, minor_id::text, guardian_id::text, created_at FROM family.guardian_links
                WHERE id = \(id)::uuid
                """)
        ).first
    }

    /// Links `guardian` to `minor` and returns the new link.
    static func insert(guardian: UserID, minor: UserID, now: Date, in tx: PostgresTransaction) async throws
        -> Link
    {
        let link = Link(id: .generate(at: now), minorID: minor, guardianID: guardian, createdAt: now)
        try await tx.query(
            """
            INSERT INTO family.guardian_links (id, minor_id, guardian_id, created_at)
            VALUES (\(link.id)::uuid, \(minor)::uuid, \(guardian)::uuid, \(now))
            """)
        return link
    }

    /// Deletes the link `id` if `guardian` is its guardian; whether it did.
    static func delete(_ id: GuardianLinkID, guardian: UserID, on db: some StatementRunner) async throws
        -> Bool
    {
        try await db.query(
            """
            DELETE FROM family.guardian_links WHERE id = \(id)::uuid AND guardian_id = \(guardian)::uuid
            """
        ).affectedRows == 1
    }

    /// Deletes every link `user` is on, either way.
    static func deleteAll(of user: UserID, in tx: PostgresTransaction) async throws {
        try await tx.query(
            "DELETE FROM family.guardian_links WHERE minor_id = \(user)::uuid OR guardian_id = \(user)::uuid")
    }

    private static func decode(_ rows: PostgresRows) throws -> [Link] {
        try rows.map { row in
            let (id, minor, guardian, createdAt) = try row.decode((GuardianLinkID, UserID, UserID, Date).self)
            return Link(id: id, minorID: minor, guardianID: guardian, createdAt: createdAt)
        }
    }
}
