import KindredPostgres

extension GamificationMigrations {
    /// An unlock remembers the request that made it, so a retried `UnlockRewardApp` finds it instead of
    /// reserving twice. Unlocks made before this migration have none.
    static let v13UnlockRequestIds = Migration(
        version: 13, name: "unlock_request_ids",
        sql: """
            ALTER TABLE gamification.reward_unlocks ADD COLUMN request_id text;
            CREATE UNIQUE INDEX reward_unlocks_by_request ON gamification.reward_unlocks (child_id, request_id);
            """)
}
