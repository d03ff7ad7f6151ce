import KindredPostgres
import KindredRuntime

/// The notification rules behind the RPCs: the caller's in-app inbox (list, mark read, watch), their push
/// devices and their guardian notification settings (one file per concern). Each rule takes the caller's id
/// explicitly, so it is tested without a server; the RPC handlers only translate.
struct Notifications: Sendable {
    let database: PostgresPool
    let clock: WallClock
    /// Wakes the `WatchNotifications` streams of this process; closed at the drain.
    let bell: InboxBell

    init(context: FamilyContext) {
        database = context.database
        clock = context.clock
        bell = InboxBell(configuration: context.database.configuration, logger: context.logger)
    }
}
