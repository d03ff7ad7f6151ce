import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// `family.calendar_rsvps` (migration 13): each member's answer to an event.
enum CalendarRsvpStore {
    /// Where a page of answers ends: its last answer's time and member.
    typealias Position = (answeredAt: Date, user: UserID)

    /// Sets `user`'s answer to `event`; true when it changed (a first answer, or another one).
    static func set(
        _ answer: Kindred_Family_V1_RsvpAnswer, of user: UserID, to event: CalendarEventID,
        of profile: BabyProfileID,
        at now: Date, in tx: PostgresTransaction
    ) async throws -> Bool {
        try await !tx.query(
            """
            INSERT INTO family.calendar_rsvps AS r (profile_id, event_id, user_id, answer, answered_at)
            VALUES (\(profile)::uuid, \(event)::uuid, \(user)::uuid, \(Int(answer.rawValue))::smallint, \(now))
            ON CONFLICT (profile_id, event_id, user_id) DO UPDATE
            SET answer = excluded.answer, answered_at = excluded.answered_at WHERE r.answer <> excluded.answer
            RETURNING 1
            """
        ).isEmpty
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
