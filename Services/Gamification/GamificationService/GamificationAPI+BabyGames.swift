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

    func endBabyVote(_ request: Kindred_Gamification_V1_EndBabyVoteRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_EndBabyVoteResponse
    {
        let owner = try context.account()
        try await babyVotes.end(on: try FieldViolations.id("profile_id", request.profileID), by: owner)
        return .init()
    }

    func resetBabyVote(_ request: Kindred_Gamification_V1_ResetBabyVoteRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_ResetBabyVoteResponse
    {
        let owner = try context.account()
        try await babyVotes.reset(on: try FieldViolations.id("profile_id", request.profileID), by: owner)
        return .init()
    }
}

/// Name suggestions and their likes.
extension GamificationAPI {
    func suggestBabyName(_ request: Kindred_Gamification_V1_SuggestBabyNameRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_SuggestBabyNameResponse
    {
        let member = try context.account()
        var violations = FieldViolations()
        let profile: BabyProfileID? = violations.id("profile_id", request.profileID)
        let name = BabyVote.name(request.name, field: "name", into: &violations)
        let gender: Int? =
            request.gender == .girl || request.gender == .boy ? Int(request.gender.rawValue) : nil
        if gender == nil { violations.add("gender", "must be BABY_VOTE_GENDER_GIRL or BABY_VOTE_GENDER_BOY") }
        let (profileID, checkedName, checkedGender) = try violations.throwIfAny(profile, name, gender)
        return .init(
            suggestion: try await babyNames.suggest(
                checkedName, gender: checkedGender, on: profileID, by: member))
    }

    func listBabyNameSuggestions(
        _ request: Kindred_Gamification_V1_ListBabyNameSuggestionsRequest, context: ServerContext
    ) async throws -> Kindred_Gamification_V1_ListBabyNameSuggestionsResponse {
        let member = try context.account()
        return .init(
            suggestions: try await babyNames.suggestions(
                on: try FieldViolations.id("profile_id", request.profileID), for: member))
    }

    func likeBabyNameSuggestion(
        _ request: Kindred_Gamification_V1_LikeBabyNameSuggestionRequest, context: ServerContext
    ) async throws -> Kindred_Gamification_V1_LikeBabyNameSuggestionResponse {
        let member = try context.account()
        var violations = FieldViolations()
        let profile: BabyProfileID? = violations.id("profile_id", request.profileID)
        let suggestion: BabyNameSuggestionID? = violations.id("suggestion_id", request.suggestionID)
        let (profileID, suggestionID) = try violations.throwIfAny(profile, suggestion)
        return .init(suggestion: try await babyNames.like(suggestionID, on: profileID, by: member))
    }

    func deleteBabyNameSuggestion(
        _ request: Kindred_Gamification_V1_DeleteBabyNameSuggestionRequest, context: ServerContext
    ) async throws -> Kindred_Gamification_V1_DeleteBabyNameSuggestionResponse {
        let owner = try context.account()
        var violations = FieldViolations()
        let profile: BabyProfileID? = violations.id("profile_id", request.profileID)
        let suggestion: BabyNameSuggestionID? = violations.id("suggestion_id", request.suggestionID)
        let (profileID, suggestionID) = try violations.throwIfAny(profile, suggestion)
        try await babyNames.delete(suggestionID, on: profileID, by: owner)
        return .init()
    }
}
