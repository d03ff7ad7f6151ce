import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// The baby-profile games: votes, and their results once revealed.
extension GamificationAPI {
    func castBabyVote(_ request: Kindred_Gamification_V1_CastBabyVoteRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_CastBabyVoteResponse
    {
        let voter = try context.account()
        let (profile, vote) = try BabyVote.parse(request)
        try await babyVotes.cast(vote, on: profile, by: voter)
        return .init()
    }

    func getBabyVoteResults(
        _ request: Kindred_Gamification_V1_GetBabyVoteResultsRequest, context: ServerContext
    ) async throws -> Kindred_Gamification_V1_GetBabyVoteResultsResponse {
        let reader = try context.account()
        return try await babyVotes.results(
            of: try FieldViolations.id("profile_id", request.profileID), for: reader)
    }
}
