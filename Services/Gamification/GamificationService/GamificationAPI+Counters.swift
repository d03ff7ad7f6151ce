import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// Activity counters: a user's counts of baby-profile activity, kept from family's events.
extension GamificationAPI {
    /// The caller's counters. They are private: any other user id is refused the same way, existing or not.
    func getActivityCounters(
        _ request: Kindred_Gamification_V1_GetActivityCountersRequest, context: ServerContext
    ) async throws -> Kindred_Gamification_V1_GetActivityCountersResponse {
        let me = try context.account()
        var violations = FieldViolations()
        let user: UserID? = request.userID.isEmpty ? me : violations.id("user_id", request.userID)
        guard try violations.throwIfAny(user) == me else { throw GamificationError.activityCountersPrivate }
        return .init(counters: try await ActivityCounterStore.counters(of: me, on: self.context.database))
    }
}
