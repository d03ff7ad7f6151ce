import KindredEvents
import KindredPostgres
import KindredRuntime

/// The `gamification` schema's migrations, in order; each one is shipped once and never edited after release.
enum GamificationMigrations {
    static let all: [Migration] = [
        v1CreateUsage,
        v2UsageSettingsAndPopularApps,
        EventCursors.migration(schema: "gamification", version: 3),
        v4CreateChallenges,
        v5CreateCoins,
        v6CreateBadges,
        EventOutbox.migration(schema: "gamification", version: 7),
        v8SeedPopularChallenges,
        v9CreateBabyVotes,
        v10CreateBabyNameSuggestions,
        v11CreateActivityCounters,
        v12CreateRewards,
        v13UnlockRequestIds,
        v14CreateErasedAccounts,
        DailyJob.migration(schema: "gamification", version: 15),
        v16SealUsageSessions,
        OutboxTraceparent(GamificationEvents.outbox).migration(version: 17),
        v18BabyVoteEnd,
        v19SealBabyGames,
        v20UsageCoverage,
    ]
}
