import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// Coins, badges, the global ranking, and the streams that announce them.
extension GamificationAPI {
    func getCoinBalance(_ request: Kindred_Gamification_V1_GetCoinBalanceRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_GetCoinBalanceResponse
    {
        .init(balance: try await challenges.balance(of: try context.account()))
    }

    func listBadges(_ request: Kindred_Gamification_V1_ListBadgesRequest, context: ServerContext) async throws
        -> Kindred_Gamification_V1_ListBadgesResponse
    {
        let me = try context.account()
        return try await challenges.badges(of: me, page: try ChallengePage(of: "badges", request.page))
    }

    func getGlobalRanking(_ request: Kindred_Gamification_V1_GetGlobalRankingRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_GetGlobalRankingResponse
    {
        let me = try context.account()
        var violations = FieldViolations()
        let user: UserID? = request.userID.isEmpty ? me : violations.id("user_id", request.userID)
        let sizes = Challenges.rankingPageSizes
        if request.pageSize < 0 { violations.add("page_size", "must not be negative") }
        let size = request.pageSize <= 0 ? sizes.default : min(Int(request.pageSize), sizes.maximum)
        return try await challenges.ranking(around: try violations.throwIfAny(user), size: size)
    }

    func watchMyAchievements(
        _ request: Kindred_Gamification_V1_WatchMyAchievementsRequest,
        responses: ResponseStreamWriter<Kindred_Gamification_V1_Achievement>, context: ServerContext
    ) async throws {
        try await challenges.watchAchievements(of: try context.account(), after: request.afterCursor) {
            try await responses.write($0)
        }
        // The watch returns only once the bell closed its streams, as the process drains.
        throw RPCError.serverShuttingDown
    }

    func watchEvents(
        _ request: Kindred_Gamification_V1_WatchEventsRequest,
        responses: ResponseStreamWriter<Kindred_Gamification_V1_Event>, context: ServerContext
    ) async throws {
        try await events.serveWatch(
            after: request.afterCursor, context: context, domain: GamificationEvents.errorDomain,
            write: responses.write)
    }
}
