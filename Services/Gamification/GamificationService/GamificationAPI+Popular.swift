import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// Popular challenges: admins create them, anyone joins, and each has a shared leaderboard.
extension GamificationAPI {
    func createPopularChallenge(
        _ request: Kindred_Gamification_V1_CreatePopularChallengeRequest, context: ServerContext
    ) async throws -> Kindred_Gamification_V1_CreatePopularChallengeResponse {
        let caller = try context.authenticatedCaller()
        guard caller.role == .admin, let admin = caller.accountUserID else {
            throw GamificationError.adminRequired
        }
        return .init(
            challenge: try await challenges.createPopular(try ChallengeDraft(request), by: admin).proto)
    }

    func listPopularChallenges(
        _ request: Kindred_Gamification_V1_ListPopularChallengesRequest, context: ServerContext
    ) async throws -> Kindred_Gamification_V1_ListPopularChallengesResponse {
        let me = try context.account()
        return try await challenges.popular(for: me, page: try ChallengePage(of: "popular", request.page))
    }

    func joinPopularChallenge(
        _ request: Kindred_Gamification_V1_JoinPopularChallengeRequest, context: ServerContext
    ) async throws -> Kindred_Gamification_V1_JoinPopularChallengeResponse {
        let me = try context.account()
        let id: ChallengeID = try FieldViolations.id("challenge_id", request.challengeID)
        return .init(challenge: try await challenges.join(id, as: me).proto)
    }

    func getChallengeLeaderboard(
        _ request: Kindred_Gamification_V1_GetChallengeLeaderboardRequest, context: ServerContext
    ) async throws -> Kindred_Gamification_V1_GetChallengeLeaderboardResponse {
        let me = try context.account()
        var violations = FieldViolations()
        let challenge: ChallengeID? = violations.id("challenge_id", request.challengeID)
        let size = Paging.size(of: request.page, &violations)
        let token = request.page?.pageToken ?? ""
        let offset = token.isEmpty ? 0 : challenge.flatMap { Self.leaderboardOffset(token, of: $0) }
        if !token.isEmpty, challenge != nil, offset == nil {
            violations.add("page.page_token", "is not a page token of this leaderboard")
        }
        let id = try violations.throwIfAny(challenge)
        let start = offset ?? 0
        let (results, active) = try await challenges.leaderboard(
            of: id, for: me, offset: start, size: size + 1)
        let next = results.count > size ? Paging.token(id.description, String(start + size)) : ""
        return .init(
            results: results.prefix(size).map(\.proto), activeParticipants: active,
            page: .init(nextPageToken: next))
    }

    func watchChallengeLeaderboard(
        _ request: Kindred_Gamification_V1_WatchChallengeLeaderboardRequest,
        responses: ResponseStreamWriter<Kindred_Gamification_V1_ChallengeResult>, context: ServerContext
    ) async throws {
        let me = try context.account()
        let id: ChallengeID = try FieldViolations.id("challenge_id", request.challengeID)
        try await challenges.watchLeaderboard(of: id, for: me, after: request.afterCursor) { result in
            try await responses.write(result)
        }
        // The watch returns only once the bell closed its streams, as the process drains.
        throw RPCError.serverShuttingDown
    }

    /// The offset a leaderboard page token of challenge `id` holds.
    private static func leaderboardOffset(_ token: String, of id: ChallengeID) -> Int? {
        guard let fields = Paging.fields(of: token, count: 2), fields[0] == id.description,
            let offset = Int(fields[1]), offset >= 0
        else { return nil }
        return offset
    }
}
