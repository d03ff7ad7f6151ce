import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// Baby profiles, live: the home screen, the suggestions, and the activity stream. Members only.
extension FamilyAPI {
    func getHome(_ request: Kindred_Family_V1_GetHomeRequest, context: ServerContext) async throws
        -> Kindred_Family_V1_GetHomeResponse
    {
        let caller = try context.authenticatedCaller(as: .user)
        return try await babyHome.home(for: try caller.account(), page: try HomePage(request))
    }

    func listSuggestions(_ request: Kindred_Family_V1_ListSuggestionsRequest, context: ServerContext)
        async throws -> Kindred_Family_V1_ListSuggestionsResponse
    {
        let caller = try context.authenticatedCaller(as: .user)
        let query = try SuggestionQuery(request)
        return try await babyHome.suggestions(
            for: try caller.account(), profile: query.profile, asked: query.stages)
    }

    func watchProfileActivity(
        _ request: Kindred_Family_V1_WatchProfileActivityRequest,
        responses: ResponseStreamWriter<Kindred_Family_V1_WatchProfileActivityResponse>,
        context: ServerContext
    ) async throws {
        let caller = try context.authenticatedCaller(as: .user)
        var violations = FieldViolations()
        let profiles: [BabyProfileID]? = violations.ids("profile_ids", request.profileIds)
        let cursor =
            request.afterCursor.isEmpty ? nil : Int64(request.afterCursor).flatMap { $0 >= 0 ? $0 : nil }
        if !request.afterCursor.isEmpty && cursor == nil {
            violations.add("after_cursor", "is not a cursor of this stream")
        }
        let asked = try violations.throwIfAny(profiles)
        try await babyWatch.watch(try caller.account(), profiles: asked, after: cursor) { update in
            try await responses.write(update)
        }
        // The watch returns only once the fan-out closed its streams, as the process drains.
        throw RPCError.serverShuttingDown
    }
}
