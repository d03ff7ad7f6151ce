import KindredPostgres

extension GamificationMigrations {
    /// A revealed game's birth date and name are sealed together in `arrival_sealed` (`BabyGameSeals`): the
    /// plaintext columns stay empty for new reveals, and older ones keep theirs until `keys rotate-data`.
    static let v19SealBabyGames = Migration(
        version: 19, name: "seal_baby_games",
        sql: """
            ALTER TABLE gamification.baby_games
                ADD COLUMN arrival_sealed bytea,
                ALTER COLUMN baby_name DROP NOT NULL,
                ALTER COLUMN baby_name DROP DEFAULT;
            """)
}
