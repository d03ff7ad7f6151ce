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
    /// (nil when not a member of the active profile), and, for a follower, the event's name, description and
    /// location as stored and whether the answer changed (a first answer, or another one), nil when there is
    /// no such event on `profile` (nothing set then).
    static func set(
        _ answer: Kindred_Family_V1_RsvpAnswer, of user: UserID, to event: CalendarEventID,
        of profile: BabyProfileID, seals: BabySeals,
        at now: Date, in tx: PostgresTransaction
    ) async throws -> (author: ActivityAuthor, set: (event: StoredTexts, changed: Bool)?)? {
        let rows = try await tx.query(
            """
            WITH author AS (\(BabyActivityStore.authorHold(user, of: profile))),
            event AS (
                SELECT name, description, location, texts_sealed, true AS found FROM family.calendar_events
                WHERE profile_id = \(profile)::uuid AND event_id = \(event)::uuid
                  AND (SELECT role FROM author) = \(BabyRole.follower.rawValue)::smallint
                FOR SHARE),
            answered AS (
                INSERT INTO family.calendar_rsvps AS r (profile_id, event_id, user_id, answer, answered_at)
                SELECT \(profile)::uuid, \(event)::uuid, \(user)::uuid, \(Int(answer.rawValue))::smallint, \(now)
                FROM event
                ON CONFLICT (profile_id, event_id, user_id) DO UPDATE
                SET answer = excluded.answer, answered_at = excluded.answered_at WHERE r.answer <> excluded.answer
                RETURNING 1)
            SELECT author.*, event.*, EXISTS (SELECT FROM answered) FROM author LEFT JOIN event ON true
            """)
        guard let row = rows.first, let author = try BabyActivityStore.author(row, of: profile, seals: seals)
        else { return nil }
        // The event's four columns, whether it was found and whether the answer changed follow the author's
        // thirteen.
        guard try row.decode(Bool?.self, column: 17) != nil else { return (author, nil) }
        return (
            author, (try CalendarEventStore.storedTexts(row, from: 13), try row.decode(Bool.self, column: 18))
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
