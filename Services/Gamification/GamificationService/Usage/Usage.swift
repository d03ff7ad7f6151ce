import KindredHandlers
import KindredPostgres

/// App usage: batches of sessions kept as exact daily totals, the user's settings, their summaries and
/// history, friend leaderboards and the popular apps. Each rule takes the caller's id explicitly, so it is
/// tested without a server; the RPC handlers (`GamificationAPI+Usage.swift`) only translate. Rules are in
/// `Usage+*.swift`, their SQL in `Storage/`.
struct Usage: Sendable {
    let database: PostgresPool
    let clock: WallClock
    let friends: any FriendGraph
    let sessions: UsageSessions

    init(context: GamificationContext) {
        database = context.database
        clock = context.clock
        friends = context.friends
        sessions = context.usageSessions
    }
}
