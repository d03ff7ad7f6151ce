import KindredAPI
import KindredEvents

/// `kindred.gamification.v1.GamificationService`: each RPC reads the request, checks the caller, and hands the
/// rule to the part that owns it. The RPCs are grouped by concern in the `GamificationAPI+*.swift` files.
struct GamificationAPI: Kindred_Gamification_V1_GamificationService.Service {
    let context: GamificationContext
    /// The `gamification.event_outbox` as streams, for `WatchEvents`.
    let events: EventFeed
    /// Challenges, coins, badges, the global ranking, and their streams.
    let challenges: Challenges
    /// Usage sessions, local-day totals, settings, summaries and friend leaderboards.
    let usage: Usage
    /// The apps the product suggests, which admins change.
    let popularApps: PopularApps
    /// Followers' votes on a baby profile, secret until the arrival.
    let babyVotes: BabyVotes
    /// Names suggested on a baby profile, and their likes.
    let babyNames: BabyNameSuggestions
    /// Learning points and reward apps of children, their guardians' setups and unlocks.
    let rewards: Rewards

    /// Builds every part from `context`.
    init(context: GamificationContext) throws {
        self.context = context
        events = try EventFeed(
            outbox: GamificationEvents.outbox, cipher: context.cipher, pool: context.database,
            logger: context.logger)
        challenges = Challenges(context: context)
        usage = Usage(context: context)
        popularApps = PopularApps(database: context.database)
        babyVotes = BabyVotes(context: context)
        babyNames = BabyNameSuggestions(context: context)
        rewards = Rewards(context: context)
    }

    /// Ends the server streams, so that they do not hold the drain.
    func closeStreams() async {
        await events.close()
        await challenges.close()
    }
}
