import KindredAuth
import KindredHandlers
import KindredPostgres

/// The notification rules behind the RPCs: the caller's in-app inbox (list, mark read, watch), their push
/// devices and their guardian notification settings (one file per concern). Each rule takes the caller's id
/// explicitly, so it is tested without a server; the RPC handlers only translate.
struct Notifications: Sendable {
    let database: PostgresPool
    let clock: WallClock
    /// Family's data keys, which open the notices' texts (`NoticeText`).
    let cipher: FieldCipher
    /// Wakes the `WatchNotifications` streams of this process and shares their reads; closed at the drain.
    let bell: RecipientBell<InboxStore.Positioned>

    /// The rules over `context`; the bell looks for notifications whose wake-up was lost every
    /// `headPollInterval` (`RecipientBell+Heads.swift`).
    init(context: FamilyContext, headPollInterval: Duration = .seconds(10)) {
        let database = context.database
        let cipher = context.cipher
        self.database = database
        self.cipher = cipher
        clock = context.clock
        bell = RecipientBell(
            channel: NotificationInbox.channel, pool: database, logger: context.logger,
            headPollInterval: headPollInterval, cursor: { $0.seq },
            // The bell keys its streams by the recipient's text, which `watch` gave it from a `UserID`.
            read: RecipientBell.keyed(by: { UserID($0) }) { after, limit in
                try await InboxStore.notifications(after: after, limit: limit, cipher: cipher, on: database)
            },
            heads: { recipients in
                let heads = try await InboxStore.heads(of: recipients.compactMap(UserID.init), on: database)
                return Dictionary(uniqueKeysWithValues: heads.map { ($0.key.description, $0.value) })
            })
    }
}
