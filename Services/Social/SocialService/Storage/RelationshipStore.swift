import KindredHandlers
import KindredPostgres

/// Reads `Relationship`s from the graph tables.
enum RelationshipStore {
    /// How `me` stands with `other`: five primary-key probes in one statement.
    static func between(_ me: UserID, _ other: UserID, on db: some StatementRunner) async throws
        -> Relationship
    {
        let rows = try await db.pureRead(
            """
            SELECT
                EXISTS (SELECT 1 FROM social.blocks WHERE blocker_id = \(me) AND blocked_id = \(other)),
                EXISTS (SELECT 1 FROM social.blocks WHERE blocker_id = \(other) AND blocked_id = \(me)),
                EXISTS (SELECT 1 FROM social.follows WHERE follower_id = \(me) AND followee_id = \(other)),
                EXISTS (SELECT 1 FROM social.follows WHERE follower_id = \(other) AND followee_id = \(me)),
                EXISTS (SELECT 1 FROM social.friendships WHERE user_id = \(me) AND friend_id = \(other))
            """)
        // A SELECT without FROM always answers one row.
        let (blocks, blockedBy, follows, followedBy, friends) = try rows.first!.decode(
            (Bool, Bool, Bool, Bool, Bool).self)
        return Relationship(
            blocks: blocks, blockedBy: blockedBy, follows: follows, followedBy: followedBy, friends: friends)
    }
}
