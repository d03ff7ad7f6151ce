import KindredPostgres

extension GamificationMigrations {
    /// The popular challenges the product ships with; admins add more with `CreatePopularChallenge`. App ids
    /// are the popular apps' (usage.proto).
    static let v8SeedPopularChallenges = Migration(
        version: 8, name: "seed_popular_challenges",
        sql: """
            -- At most 2 hours of YouTube a day for a week; a minute of WhatsApp a day for three days; no
            -- Instagram for a day.
            INSERT INTO gamification.challenges
                (id, name, app_id, daily_limit_minutes, duration_days, difficulty, coin_award, popular, created_at)
            VALUES
                ('01936a00-0000-7000-8000-000000000001', 'YouTube 2 hour fast', 'youtube', 120, 7, 2, 150, true,
                 '2026-11-25T00:00:00Z'),
                ('01936a00-0000-7000-8000-000000000002', 'WhatsApp 1 minute limit', 'whatsapp', 1, 3, 3, 150, true,
                 '2026-11-25T00:00:01Z'),
                ('01936a00-0000-7000-8000-000000000003', 'Instagram detox day', 'instagram', 0, 1, 2, 50, true,
                 '2026-11-25T00:00:02Z');
            """)
}
