import KindredHandlers
import KindredPostgres

/// A member's read of one profile with the membership check inside it: one statement where the check and the
/// read were two (each statement costs PostgreSQL its protocol, executor start-up and commit, ~50-70 us).
extension BabyMemberStore {
    /// A page of rows over the profiles it is given (a list's scope).
    typealias ProfilesPage = ([BabyProfileID]) -> PostgresQuery

    /// The rows `page` reads, each decoded by `row`: a list over every profile the caller belongs to, whose
    /// scope is already their memberships.
    static func read<Row>(
        _ page: PostgresQuery, on db: some StatementRunner, row: (PostgresRow) throws -> Row
    ) async throws -> [Row] {
        try await db.pureRead(page).map(row)
    }

    /// What `page` reads, only when `user` is a member of the active `profile`; nil when they are not (a
    /// stranger, an unknown id and a deactivated profile alike), with an empty list for a member whose page is
    /// empty. `page` may name the caller's role as `member.role`, where what it shows depends on it. Each row
    /// is decoded by `row` from the page's own columns, which come first, at their own numbers.
    static func readAsMember<Row>(
        _ page: PostgresQuery, readBy user: UserID, of profile: BabyProfileID, on db: some StatementRunner,
        row: (PostgresRow) throws -> Row
    ) async throws -> (role: BabyRole, rows: [Row])? {
        // No row: not a member. A member gets a row per page row, or one whose page columns are NULL. The
        // check is a MATERIALIZED CTE so that the join can only be a nested loop with the one member row
        // outside: the page's rows then come out in the page's own order (an outer join on `true` has no
        // clause a hash or merge join could use), and a stranger's page is never read.
        let rows = try await db.pureRead(
            """
            WITH member AS MATERIALIZED (\(role(of: user, in: profile)))
            SELECT page.*, member.role FROM member
            LEFT JOIN LATERAL (SELECT read.*, true AS found FROM (\(page)) read) page ON true
            """)
        guard let first = rows.first else { return nil }
        let (found, roleColumn) = (first.columnCount - 2, first.columnCount - 1)
        guard let role = BabyRole(rawValue: try first.decode(Int.self, column: roleColumn)) else {
            return nil
        }
        guard try first.decode(Bool?.self, column: found) != nil else { return (role, []) }
        return (role, try rows.map(row))
    }
}
