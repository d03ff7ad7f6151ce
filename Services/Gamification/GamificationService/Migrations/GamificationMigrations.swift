import KindredEvents
import KindredPostgres

/// The `gamification` schema's migrations, in order; each one is shipped once and never edited after release.
enum GamificationMigrations {
    static let all: [Migration] = [
        v1CreateUsage,
        v6CreateChallenges,
        v7CreateCoins,
        v8CreateBadges,
        EventOutbox.migration(schema: "gamification", version: 9),
        v10SeedPopularChallenges,
    ]
}
