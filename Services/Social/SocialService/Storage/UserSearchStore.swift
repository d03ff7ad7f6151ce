import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// The SQL of `SearchUsers`: which of identity's matches the searcher may see, and remembering them.
enum UserSearchStore {
    /// What social knows of one match.
    struct Screening: Sendable, Equatable {
        /// Neither blocked the other, and the match's user is not filtered by reports.
        let visible: Bool
        /// `social.people` holds them already.
        let known: Bool
    }

    /// For each of `ids` (one page of identity's matches), as seen by `searcher`: primary-key probes only, in
    /// one statement (none for an empty page).
    static func screen(_ ids: [UserID], for searcher: UserID, on db: some StatementRunner) async throws
        -> [UserID: Screening]
    {
        guard !ids.isEmpty else { return [:] }
        let rows = try await db.pureRead(
            """
            SELECT m.id::text,
                NOT EXISTS (SELECT 1 FROM social.blocks b WHERE b.blocker_id = \(searcher)::uuid AND b.blocked_id = m.id)
                AND NOT EXISTS (SELECT 1 FROM social.blocks b WHERE b.blocker_id = m.id AND b.blocked_id = \(searcher)::uuid)
                AND NOT EXISTS (
                    SELECT 1 FROM social.report_tallies t
                    WHERE t.content_kind = \(Int(Kindred_Social_V1_ContentKind.user.rawValue)) AND t.content_id = m.id
                      AND t.reporters >= \(ReportTally.filterThreshold)),
                EXISTS (SELECT 1 FROM social.people p WHERE p.user_id = m.id)
            FROM unnest(\(PostgresArray(ids))::uuid[]) AS m(id)
            """)
        return Dictionary(
            try rows.map { row in
                let (id, visible, known) = try row.decode((UserID, Bool, Bool).self)
                return (id, Screening(visible: visible, known: known))
            }, uniquingKeysWith: { first, _ in first })
    }

    /// Remembers `people` in one statement. Whom social knows already it keeps as it knows them: usernames
    /// never change, and what it knows came from identity's own account of them.
    static func remember(_ people: [Person], at now: Date, on db: some StatementRunner) async throws {
        try await db.query(
            """
            INSERT INTO social.people (user_id, username, minor, learned_at)
            SELECT id, username, minor, \(now)
            FROM unnest(\(PostgresArray(people.map(\.id)))::uuid[], \(PostgresArray(people.map(\.username)))::text[],
                        \(PostgresArray(people.map(\.minor)))::boolean[]) AS n(id, username, minor)
            ON CONFLICT (user_id) DO NOTHING
            """)
    }
}
