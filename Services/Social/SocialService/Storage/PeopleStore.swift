import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// `social.people`: whom social has met.
enum PeopleStore {
    static func find(id: UserID, on db: some StatementRunner) async throws -> Person? {
        try await decode(
            db.pureRead("SELECT user_id::text, username, minor FROM social.people WHERE user_id = \(id)"))
    }

    static func find(username: String, on db: some StatementRunner) async throws -> Person? {
        try await decode(
            db.pureRead(
                "SELECT user_id::text, username, minor FROM social.people WHERE lower(username) = lower(\(username))"
            ))
    }

    /// Keeps what identity said of `person`, replacing what was known before.
    static func remember(_ person: Person, at now: Date, on db: some StatementRunner) async throws {
        try await db.query(
            """
            INSERT INTO social.people (user_id, username, minor, learned_at)
            VALUES (\(person.id), \(person.username), \(person.minor), \(now))
            ON CONFLICT (user_id) DO UPDATE
            SET username = excluded.username, minor = excluded.minor, learned_at = excluded.learned_at
            """)
    }

    private static func decode(_ rows: PostgresRows) throws -> Person? {
        try rows.first.map { row in
            let (id, username, minor) = try row.decode((UserID, String, Bool).self)
            return Person(id: id, username: username, minor: minor)
        }
    }
}
