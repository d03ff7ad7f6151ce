import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// `gamification.badges`: one per user and completed challenge, so a completion processed twice awards once.
enum BadgeStore {
    /// Awards `badge` to `user` for `challenge`; false when they hold the badge of that completion already.
    static func award(
        _ badge: Kindred_Gamification_V1_Badge, to user: UserID, for challenge: ChallengeID,
        in tx: PostgresTransaction
    ) async throws -> Bool {
        let earnedAt = badge.earnedAt ?? .distantPast
        let rows = try await tx.query(
            """
            INSERT INTO gamification.badges (user_id, challenge_id, kind, challenge_name, earned_at)
            VALUES (\(user), \(challenge), \(badge.kind), \(badge.challengeName), \(earnedAt))
            ON CONFLICT (user_id, challenge_id) DO NOTHING
            """)
        return rows.affectedRows == 1
    }

    /// Up to `limit` of `user`'s badges, the newest first, after `after`.
    static func badges(
        of user: UserID, after: ChallengePage.Position?, limit: Int, on db: some StatementRunner
    ) async throws -> [(badge: Kindred_Gamification_V1_Badge, challenge: ChallengeID, earnedAt: Date)] {
        let (at, id) = (
            after?.at ?? .distantFuture, after?.id.description ?? "ffffffff-ffff-ffff-ffff-ffffffffffff"
        )
        let rows = try await db.pureRead(
            """
            SELECT kind, challenge_id, challenge_name, earned_at FROM gamification.badges
            WHERE user_id = \(user) AND (earned_at, challenge_id) < (\(at), \(id)::uuid)
            ORDER BY earned_at DESC, challenge_id DESC LIMIT \(limit)
            """)
        return try rows.map { row in
            let (kind, challenge, name, earnedAt) = try row.decode((String, ChallengeID, String, Date).self)
            let badge = Kindred_Gamification_V1_Badge(
                kind: kind, challengeID: challenge.description, challengeName: name,
                earnedAt: earnedAt)
            return (badge, challenge, earnedAt)
        }
    }
}
