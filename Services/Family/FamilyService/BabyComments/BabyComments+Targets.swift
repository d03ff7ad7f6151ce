import KindredHandlers
import KindredPostgres

/// Whether what a comment names is on the profile. Photos and the arrival announcement come with the
/// gallery (the next issue): until then none exists, and a comment on one is COMMENT_TARGET_NOT_FOUND.
extension BabyComments {
    /// Whether `target` exists, held until `tx` ends so that it is not deleted under the new comment.
    static func holdTarget(_ target: CommentTarget, in tx: PostgresTransaction) async throws -> Bool {
        switch target.kind {
        case .calendarEvent:
            try await CalendarEventStore.holdName(CalendarEventID(target.id), of: target.profile, in: tx)
                != nil
        case .photo, .announcement: false
        }
    }

    /// Whether `target` exists.
    static func targetExists(_ target: CommentTarget, on db: some StatementRunner) async throws -> Bool {
        switch target.kind {
        case .calendarEvent:
            try await CalendarEventStore.exists(CalendarEventID(target.id), of: target.profile, on: db)
        case .photo, .announcement: false
        }
    }
}
