import KindredHandlers
import KindredPostgres

/// Reads `Relationship`s from the graph tables.
enum RelationshipStore {
    /// How `me` stands with `other`: five primary-key probes in one statement.
    static func between(_ me: UserID, _ other: UserID, on db: some StatementRunner) async throws
        -> Relationship
    {
        let rows = try await db.pureRead(
            "SELECT \(unsafeSQL: columns) FROM (SELECT \(me)::uuid AS me, \(other)::uuid AS other) pair")
        // A SELECT from one row always answers one row.
        return try relationship(rows.first!, from: 0)
    }

    /// The five probes as select-list text, reading the row `pair (me, other)` the statement provides;
    /// `relationship(_:from:)` decodes them. Other statements that need the relationship beside their own
    /// reads select these too.
    static let columns = """
        EXISTS (SELECT 1 FROM social.blocks WHERE blocker_id = pair.me AND blocked_id = pair.other),
        EXISTS (SELECT 1 FROM social.blocks WHERE blocker_id = pair.other AND blocked_id = pair.me),
        EXISTS (SELECT 1 FROM social.follows WHERE follower_id = pair.me AND followee_id = pair.other),
        EXISTS (SELECT 1 FROM social.follows WHERE follower_id = pair.other AND followee_id = pair.me),
        EXISTS (SELECT 1 FROM social.friendships WHERE user_id = pair.me AND friend_id = pair.other)
        """

    /// The relationship `columns` selected, starting at `column`.
    static func relationship(_ row: PostgresRow, from column: Int) throws -> Relationship {
        Relationship(
            blocks: try row.decode(Bool.self, column: column),
            blockedBy: try row.decode(Bool.self, column: column + 1),
            follows: try row.decode(Bool.self, column: column + 2),
            followedBy: try row.decode(Bool.self, column: column + 3),
            friends: try row.decode(Bool.self, column: column + 4))
    }
}
