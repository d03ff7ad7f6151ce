import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// A baby's arrival announcement: `AnnounceArrival`, `UpdateArrival`, `GetArrival`, `GetArrivalShare`.
extension FamilyAPI {
    func announceArrival(_ request: Kindred_Family_V1_AnnounceArrivalRequest, context: ServerContext)
        async throws -> Kindred_Family_V1_AnnounceArrivalResponse
    {
        let owner = try context.authenticatedCaller().account()
        let draft = try ArrivalDraft(
            profileID: request.profileID, arrival: request.arrival, now: self.context.clock.now)
        let arrival = try await arrivals.announce(draft, by: owner)
        return Kindred_Family_V1_AnnounceArrivalResponse(arrival: arrival)
    }

    func updateArrival(_ request: Kindred_Family_V1_UpdateArrivalRequest, context: ServerContext) async throws
        -> Kindred_Family_V1_UpdateArrivalResponse
    {
        let owner = try context.authenticatedCaller().account()
        let draft = try ArrivalDraft(
            profileID: request.profileID, arrival: request.arrival, now: self.context.clock.now)
        let arrival = try await arrivals.update(draft, by: owner)
        return Kindred_Family_V1_UpdateArrivalResponse(arrival: arrival)
    }

    func getArrival(_ request: Kindred_Family_V1_GetArrivalRequest, context: ServerContext) async throws
        -> Kindred_Family_V1_GetArrivalResponse
    {
        let caller = try context.authenticatedCaller().account()
        let arrival = try await arrivals.get(
            try FieldViolations.id("profile_id", request.profileID), by: caller)
        return Kindred_Family_V1_GetArrivalResponse(arrival: arrival)
    }

    func getArrivalShare(_ request: Kindred_Family_V1_GetArrivalShareRequest, context: ServerContext)
        async throws -> Kindred_Family_V1_GetArrivalShareResponse
    {
        let caller = try context.authenticatedCaller().account()
        return try await arrivals.share(try FieldViolations.id("profile_id", request.profileID), by: caller)
    }
}
