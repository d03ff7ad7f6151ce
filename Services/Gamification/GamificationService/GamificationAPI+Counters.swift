import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC

/// Activity counters: a user's counts of baby-profile activity, kept from family's events.
extension GamificationAPI {
    /// A user's counters, for the user and for those who share a baby profile with them (family says who);
    /// anyone else is refused the same way, whether the user exists or not.
    func getActivityCounters(
        _ request: Kindred_Gamification_V1_GetActivityCountersRequest, context: ServerContext
    ) async throws -> Kindred_Gamification_V1_GetActivityCountersResponse {
        let me = try context.account()
        var violations = FieldViolations()
        let user: UserID? = request.userID.isEmpty ? me : violations.id("user_id", request.userID)
        let owner = try violations.throwIfAny(user)
        if owner != me, try await !self.context.babyMembers.share(me, with: owner) {
            throw GamificationError.activityCountersPrivate
        }
        return .init(counters: try await ActivityCounterStore.counters(of: owner, on: self.context.database))
    }
}
