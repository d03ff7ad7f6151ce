import KindredHandlers
import KindredPostgres

/// Whether what a comment names is on the profile: an event of its calendar, a photo of its gallery, or its
/// arrival announcement once made; anything else is COMMENT_TARGET_NOT_FOUND.
extension BabyComments {
    /// Whether `target` exists.
    static func targetExists(_ target: CommentTarget, on db: some StatementRunner) async throws -> Bool {
        switch target.kind {
        case .calendarEvent:
            try await CalendarEventStore.exists(CalendarEventID(target.id), of: target.profile, on: db)
        case .photo: try await ArrivalStore.exists(photo: PhotoID(target.id), of: target.profile, on: db)
        case .announcement: try await ArrivalStore.exists(photo: nil, of: target.profile, on: db)
        }
    }
}
