import KindredHandlers
import KindredPostgres

/// What identity's `user.deleted` removes of challenges: the account's parts and results, badges,
/// achievements, ledger and balance (out of the ranking), and the challenges they created that nobody else
/// took part in; challenges others took part in stay theirs, without a creator.
extension ChallengeStore {
    /// Forgets `user`'s challenge data in `tx` (the consumer's transaction, beside its stored cursor); running
    /// it again finds nothing more to delete.
    static func forget(_ user: UserID, in tx: PostgresTransaction) async throws {
        try await tx.query(
            """
            DELETE FROM gamification.challenge_results r USING gamification.challenge_participants p
            WHERE p.user_id = \(user) AND r.challenge_id = p.challenge_id AND r.user_id = \(user)
            """)
        try await tx.query("DELETE FROM gamification.challenge_participants WHERE user_id = \(user)")
        try await tx.query(
            """
            DELETE FROM gamification.challenges c WHERE c.creator_id = \(user) AND NOT c.popular
                AND NOT EXISTS (SELECT FROM gamification.challenge_participants p WHERE p.challenge_id = c.id)
            """)
        try await tx.query(
            "UPDATE gamification.challenges SET creator_id = NULL, request_id = NULL WHERE creator_id = \(user)"
        )
        try await tx.query(
            "UPDATE gamification.challenge_participants SET invited_by = NULL WHERE invited_by = \(user)")
        try await tx.query("DELETE FROM gamification.badges WHERE user_id = \(user)")
        try await tx.query("DELETE FROM gamification.achievements WHERE user_id = \(user)")
        try await CoinStore.delete(user, in: tx)
    }
}
