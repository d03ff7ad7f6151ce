import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// Usage, settings, summaries, history and friend leaderboards, for a person (a service token names no
/// user); the popular apps for anyone, changed by admins.
extension GamificationAPI {
    func uploadUsage(_ request: Kindred_Gamification_V1_UploadUsageRequest, context: ServerContext)
        async throws
        -> Kindred_Gamification_V1_UploadUsageResponse
    {
        try await usage.upload(request, of: try context.account())
    }

    func getUsageSettings(_ request: Kindred_Gamification_V1_GetUsageSettingsRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_GetUsageSettingsResponse
    {
        .init(settings: try await usage.settings(of: try context.account()).proto)
    }

    func setUsageSettings(_ request: Kindred_Gamification_V1_SetUsageSettingsRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_SetUsageSettingsResponse
    {
        .init(settings: try await usage.replaceSettings(request, of: try context.account()).proto)
    }

    func getUsageSummary(_ request: Kindred_Gamification_V1_GetUsageSummaryRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_GetUsageSummaryResponse
    {
        try await usage.summary(request, of: try context.account())
    }

    func listUsageSessions(
        _ request: Kindred_Gamification_V1_ListUsageSessionsRequest, context: ServerContext
    )
        async throws -> Kindred_Gamification_V1_ListUsageSessionsResponse
    {
        try await usage.sessions(request, of: try context.account())
    }

    func getFriendLeaderboard(
        _ request: Kindred_Gamification_V1_GetFriendLeaderboardRequest, context: ServerContext
    ) async throws -> Kindred_Gamification_V1_GetFriendLeaderboardResponse {
        try await usage.leaderboard(
            request, for: try context.account(), forwarding: context.requestMetadata)
    }

    func listPopularApps(_ request: Kindred_Gamification_V1_ListPopularAppsRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_ListPopularAppsResponse
    {
        _ = try context.authenticatedCaller()
        return .init(apps: try await popularApps.list())
    }

    func setPopularApps(_ request: Kindred_Gamification_V1_SetPopularAppsRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_SetPopularAppsResponse
    {
        _ = try context.authenticatedCaller(as: .admin)
        return .init(apps: try await popularApps.replace(request))
    }
}
