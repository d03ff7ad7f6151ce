import KindredAPI
import KindredMessages
import KindredRPC

/// The navigation bar's one call: coins and global position from the ledger's ranking, and this week's place
/// on the friend leaderboard of the caller's chosen app, read side by side.
extension GamificationAPI {
    func getMyStanding(_ request: Kindred_Gamification_V1_GetMyStandingRequest, context: ServerContext)
        async throws -> Kindred_Gamification_V1_GetMyStandingResponse
    {
        let me = try context.account()
        async let balance = challenges.balance(of: me)
        async let position = challenges.globalPosition(of: me)
        let weekly = try await usage.standing(of: me, forwarding: context.requestMetadata)
        return Kindred_Gamification_V1_GetMyStandingResponse(
            coinBalance: try await balance, globalPosition: try await position,
            weekly: weekly.map {
                Kindred_Gamification_V1_WeeklyStanding(
                    appID: $0.appID, place: Int32($0.place), people: Int32($0.people))
            })
    }
}
