import KindredAPI

/// `kindred.gamification.v1.GamificationService`: each RPC reads the request, checks the caller, and hands the
/// rule to the part that owns it. The RPCs are grouped by concern in the `GamificationAPI+*.swift` files.
struct GamificationAPI: Kindred_Gamification_V1_GamificationService.Service {
    let context: GamificationContext
    let usage: Usage
    let popularApps: PopularApps

    /// Builds every part from `context`.
    init(context: GamificationContext) throws {
        self.context = context
        usage = Usage(context: context)
        popularApps = PopularApps(database: context.database)
    }

    /// Ends the server streams, so that they do not hold the drain.
    func closeStreams() async {}
}
