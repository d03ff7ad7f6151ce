import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres

/// One notification to post to somebody's in-app inbox.
struct Notice: Sendable {
    let kind: Kindred_Family_V1_NotificationKind
    let title: String
    let body: String
    /// The user the notice is about (the minor, for a guardian's alert); nil when it is the recipient.
    var subjectUserID: UserID? = nil
    /// Names the notice after what caused it (`"came_of_age"`, an event's cursor), so that a handler seeing
    /// the same event again posts nothing twice.
    var dedupKey: String? = nil
}

/// Posting to the in-app inbox, from any part of the service, inside the transaction of the change the
/// notice reports: it appears only if the change commits. Its title and body are sealed (`NoticeText`). A post also queues a push message for each of the
/// recipient's devices that opted in (`family.push_outbox`), and wakes the recipient's `WatchNotifications`
/// streams in every instance.
enum NotificationInbox {
    /// The channel a committed post wakes, with the recipient's id as payload.
    static let channel = "family_notifications"

    /// Posts `notice` to `recipient`, its title and body sealed under `cipher` (family's data keys); false
    /// when a notice with the same `dedupKey` was posted to them before.
    @discardableResult
    static func post(
        _ notice: Notice, to recipient: UserID, at now: Date, sealedWith cipher: FieldCipher,
        in tx: PostgresTransaction
    ) async throws -> Bool {
        try await InboxStore.post(
            notice, text: notice.sealedText(with: cipher), id: .generate(at: now), to: recipient, at: now,
            in: tx)
    }
}
