import KindredPostgres

extension GamificationMigrations {
    /// The owners may end the secret vote before the arrival: `ended_at` closes it to new votes and reveals
    /// nothing (the arrival still does); a reset deletes the votes and clears it.
    static let v18BabyVoteEnd = Migration(
        version: 18, name: "baby_vote_end",
        sql: """
            ALTER TABLE gamification.baby_games ADD COLUMN ended_at timestamptz;
            """)
}
