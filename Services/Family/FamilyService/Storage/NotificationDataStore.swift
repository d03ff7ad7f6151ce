import KindredHandlers
import KindredPostgres

/// What the notification part keeps about a user, deleted with their account: their inbox and its order,
/// their push devices (and the messages queued for them), their settings, their activity and their weekly
/// summaries. Alerts in a guardian's inbox about a deleted minor stay: they are the guardian's.
enum NotificationDataStore {
    /// Deletes everything of `user`'s above.
    static func deleteAll(of user: UserID, in tx: PostgresTransaction) async throws {
        try await tx.query("DELETE FROM family.notifications WHERE recipient_id = \(user)::uuid")
        try await tx.query("DELETE FROM family.notification_sequences WHERE recipient_id = \(user)::uuid")
        try await tx.query("DELETE FROM family.push_devices WHERE user_id = \(user)::uuid")
        try await tx.query("DELETE FROM family.notification_settings WHERE user_id = \(user)::uuid")
        try await tx.query("DELETE FROM family.minor_activity WHERE minor_id = \(user)::uuid")
        try await tx.query("DELETE FROM family.weekly_summaries WHERE guardian_id = \(user)::uuid")
    }
}
