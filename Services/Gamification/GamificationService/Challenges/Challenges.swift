import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres
import Logging

/// Challenges, coins, badges and the global ranking: creating, inviting, joining and forfeiting challenges,
/// the sweep that decides them, the coin ledger and badges they move, and the streams that announce it. Each
/// rule takes the caller's id explicitly, so it is tested without a server; the RPC handlers only translate.
/// Rules are in `Challenges+*.swift`, their SQL in `Storage/`.
struct Challenges: Sendable {
    /// After a participant's last day ends, how long late uploads of its usage still count before the sweep
    /// decides it.
    static let gracePeriod: Duration = .seconds(12 * 3600)

    let database: PostgresPool
    /// Gamification's data keys, which seal the events an outcome announces.
    let cipher: FieldCipher
    let clock: WallClock
    let friends: any FriendGraph
    let logger: Logger
    /// Wakes the `WatchMyAchievements` streams of this process and shares their reads; closed at the drain.
    let achievements: RecipientBell<Kindred_Gamification_V1_Achievement>
    /// Wakes the `WatchChallengeLeaderboard` streams of this process, one read per challenge per change.
    let results: RecipientBell<ChallengeResult>

    init(context: GamificationContext) {
        let database = context.database
        self.database = database
        cipher = context.cipher
        clock = context.clock
        friends = context.friends
        logger = context.logger
        // The bells key their streams by the text of the id the watch gave them.
        achievements = RecipientBell(
            channel: AchievementStore.userChannel, pool: database, logger: context.logger, cursor: \.cursor,
            read: RecipientBell.oneAtATime { user, cursor, limit in
                try await AchievementStore.achievements(
                    of: UserID(user)!, after: cursor, limit: limit, on: database)
            })
        results = RecipientBell(
            channel: AchievementStore.challengeChannel, pool: database, logger: context.logger,
            cursor: \.cursor,
            read: RecipientBell.oneAtATime { challenge, cursor, limit in
                try await ChallengeStore.results(
                    of: ChallengeID(challenge)!, after: cursor, limit: limit, on: database)
            })
    }

    /// Ends the streams, so that they do not hold the drain.
    func close() async {
        await achievements.close()
        await results.close()
    }
}
