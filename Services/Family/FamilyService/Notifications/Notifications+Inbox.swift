import KindredHandlers
import KindredMessages
import KindredRPC

/// The caller's in-app inbox: a page of it, marking read, and the stream of what arrives.
extension Notifications {
    /// Ids marked read per call at most.
    static let markLimit = 500

    /// A page of `recipient`'s notifications, newest first (the last committed first), with their unread count.
    func list(for recipient: UserID, page: InboxPage) async throws
        -> Kindred_Family_V1_ListNotificationsResponse
    {
        async let unread = InboxStore.unreadCount(of: recipient, on: database)
        var listed = try await InboxStore.page(
            of: recipient, unreadOnly: page.unreadOnly, before: page.before, limit: page.size + 1,
            cipher: cipher, on: database)
        var next = ""
        if listed.count > page.size {
            listed.removeLast()
            next = page.nextToken(after: listed[listed.count - 1].seq)
        }
        return Kindred_Family_V1_ListNotificationsResponse(
            notifications: listed.map(\.notification), unreadCount: try await unread,
            page: Kindred_Common_V1_PageResponse(nextPageToken: next))
    }

    /// The notifications a `MarkNotificationsRead` names, each once: at most `markLimit`, or INVALID_ARGUMENT
    /// naming the list, and each malformed id.
    static func marked(_ notificationIDs: [String]) throws(RPCError) -> Set<NotificationID> {
        var violations = FieldViolations()
        if notificationIDs.count > markLimit {
            violations.add("notification_ids", "must name at most \(markLimit) notifications")
        }
        let ids: [NotificationID]? = violations.ids("notification_ids", notificationIDs)
        return try violations.throwIfAny(ids.map(Set.init))
    }

    /// Marks the notifications `ids` read, those of `recipient` only (others' ids change nothing and say
    /// nothing); returns how many of theirs stay unread.
    func markRead(_ ids: Set<NotificationID>, for recipient: UserID) async throws -> Int64 {
        try await InboxStore.markRead(Array(ids), of: recipient, at: clock.now, on: database)
    }

    /// The notification a `WatchNotifications` resumes after: nil for an empty `after_notification_id` (from
    /// now on); INVALID_ARGUMENT naming it when it is malformed.
    static func resumePoint(_ afterNotificationID: String) throws(RPCError) -> NotificationID? {
        afterNotificationID.isEmpty
            ? nil : try FieldViolations.id("after_notification_id", afterNotificationID)
    }

    /// Sends `recipient`'s notifications created after `afterID` (nil: from now on), then each new one as it
    /// commits, in the order they committed, until the bell closes (the drain); throws `CancellationError`
    /// when the calling task is cancelled. The streams of one recipient share each wake-up's read
    /// (`RecipientBell`).
    func watch(
        for recipient: UserID, after afterID: NotificationID?,
        send: (Kindred_Family_V1_Notification) async throws -> Void
    ) async throws {
        try await bell.stream(to: recipient.description) { [database] in
            let start = try await InboxStore.streamStart(
                of: recipient, after: afterID, on: database)
            return (start, true)
        } send: { positioned in
            try await send(positioned.notification)
        }
    }
}
