import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// `family.calendar_rsvps` (migration 13): each member's answer to an event.
enum CalendarRsvpStore {
    /// Where a page of answers ends: its last answer's time and member.
    typealias Position = (answeredAt: Date, user: UserID)

    /// Holds `user`'s membership of `profile` and reads the names their activity shows
    /// (`BabyActivityStore.authorHold`), then, when they follow it, sets their answer to `event`, holding the
    /// event (`FOR SHARE`) until `tx` ends so that it is not deleted under the answer. One statement: the author
    /// (nil when not a member of the active profile), and, for a follower, the event as they see it after the
    /// answer (its texts opened with `texts`; its counts the other members' answers plus this one) and whether
    /// the answer changed (a first answer, or another one), nil when there is no such event on `profile`
    /// (nothing set then).
    static func set(
        _ answer: Kindred_Family_V1_RsvpAnswer, of user: UserID, to event: CalendarEventID,
        of profile: BabyProfileID, texts: SealedTexts<CalendarTexts.Key>, seals: BabySeals,
        at now: Date, in tx: PostgresTransaction
    ) async throws -> (author: ActivityAuthor, set: (event: StoredCalendarEvent, changed: Bool)?)? {
        let given = Int(answer.rawValue)
        let rows = try await tx.query(
            """
            WITH author AS (\(BabyActivityStore.authorHold(user, of: profile))),
            event AS (
                SELECT name, description, location, texts_sealed, event_id, profile_id, start_at, time_zone,
                    photo_id, video_call_url, created_by, created_at, updated_at, video_call_url_sealed
                FROM family.calendar_events
                WHERE profile_id = \(profile)::uuid AND event_id = \(event)::uuid
                  AND (SELECT role FROM author) = \(BabyRole.follower.rawValue)::smallint
                FOR SHARE),
            answered AS (
                INSERT INTO family.calendar_rsvps AS r (profile_id, event_id, user_id, answer, answered_at)
                SELECT \(profile)::uuid, \(event)::uuid, \(user)::uuid, \(given)::smallint, \(now)
                FROM event
                ON CONFLICT (profile_id, event_id, user_id) DO UPDATE
                SET answer = excluded.answer, answered_at = excluded.answered_at WHERE r.answer <> excluded.answer
                RETURNING 1),
            others AS (
                SELECT count(*) FILTER (WHERE answer = 1) AS attending,
                    count(*) FILTER (WHERE answer = 2) AS not_attending, count(*) FILTER (WHERE answer = 3) AS maybe
                FROM family.calendar_rsvps
                WHERE profile_id = \(profile)::uuid AND event_id = \(event)::uuid AND user_id <> \(user)::uuid)
            SELECT author.*, e.name, e.description, e.location, e.texts_sealed, e.event_id, e.profile_id, e.start_at,
                e.time_zone, e.photo_id, e.video_call_url, e.created_by, e.created_at, e.updated_at,
                o.attending + (\(given) = 1)::int, o.not_attending + (\(given) = 2)::int,
                o.maybe + (\(given) = 3)::int, \(given), e.video_call_url_sealed, EXISTS (SELECT FROM answered)
            FROM author LEFT JOIN (event e CROSS JOIN others o) ON true
            """)
        guard let row = rows.first, let author = try BabyActivityStore.author(row, of: profile, seals: seals)
        else { return nil }
        // The event's eighteen columns (as `CalendarEventStore.events` selects them), then whether the answer
        // changed, follow the author's thirteen; the statement reads the answers as they were before its own.
        guard try row.decode(CalendarEventID?.self, column: 17) != nil else { return (author, nil) }
        return (
            author,
            (
                try CalendarEventStore.storedEvent(row, from: 13, texts: texts),
                try row.decode(Bool.self, column: 31)
            )
        )
    }

    /// Up to `limit` answers to `event` after `position`, the earliest first.
    static func answers(
        to event: CalendarEventID, of profile: BabyProfileID, after position: Position?, limit: Int,
        on db: some StatementRunner
    ) async throws -> [Kindred_Family_V1_Rsvp] {
        try await db.pureRead(
            """
            SELECT user_id, answer, answered_at FROM family.calendar_rsvps
            WHERE profile_id = \(profile)::uuid AND event_id = \(event)::uuid
                AND (answered_at, user_id) > (coalesce(\(position?.answeredAt), '-infinity'),
                    coalesce(\(position?.user)::uuid, '00000000-0000-0000-0000-000000000000'))
            ORDER BY answered_at, user_id
            LIMIT \(limit)
            """
        ).map { row in
            Kindred_Family_V1_Rsvp(
                userID: try row.decode(UserID.self, column: 0).description,
                answer: Kindred_Family_V1_RsvpAnswer(rawValue: Int32(try row.decode(Int.self, column: 1))),
                answeredAt: try row.decode(Date.self, column: 2))
        }
    }
}
