import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// The SQL of who takes part in events: `social.event_attendees` (with `social.events.attendee_count`, kept
/// in the same statement) and `social.event_invitations`.
enum EventParticipationStore {
    /// Adds `userID` to event `eventID`'s attendees unless they are one; answers whether they were added
    /// and the event's attendee count after.
    static func join(_ userID: UserID, _ eventID: EventID, at now: Date, in tx: PostgresTransaction)
        async throws
        -> (added: Bool, attendees: Int)
    {
        let rows = try await tx.query(
            """
            WITH added AS (
                INSERT INTO social.event_attendees (event_id, user_id, joined_at)
                VALUES (\(eventID)::uuid, \(userID)::uuid, \(now))
                ON CONFLICT DO NOTHING
                RETURNING 1
            )
            UPDATE social.events SET attendee_count = attendee_count + (SELECT count(*) FROM added)
            WHERE id = \(eventID)::uuid
            RETURNING (SELECT count(*) FROM added) > 0, attendee_count
            """)
        return try rows[0].decode((Bool, Int).self)
    }

    /// Removes `userID` from event `eventID`'s attendees; answers whether they were one.
    static func leave(_ userID: UserID, _ eventID: EventID, on db: some StatementRunner) async throws -> Bool
    {
        let rows = try await db.query(
            """
            WITH removed AS (
                DELETE FROM social.event_attendees
                WHERE event_id = \(eventID)::uuid AND user_id = \(userID)::uuid
                RETURNING event_id
            )
            UPDATE social.events e SET attendee_count = e.attendee_count - 1
            FROM removed WHERE e.id = removed.event_id
            RETURNING e.id
            """)
        return !rows.isEmpty
    }

    /// Invites `userIDs` to event `eventID` of `organizerID`, except those already invited and those with a
    /// block either way with the organizer; answers whom it invited now.
    static func invite(
        _ userIDs: [UserID], to eventID: EventID, organizer organizerID: UserID, at now: Date,
        on db: some StatementRunner
    ) async throws -> Set<UserID> {
        guard !userIDs.isEmpty else { return [] }
        let rows = try await db.query(
            """
            INSERT INTO social.event_invitations (event_id, user_id, invited_at)
            SELECT \(eventID)::uuid, u.id, \(now) FROM unnest(\(PostgresArray(userIDs))::uuid[]) AS u (id)
            WHERE NOT EXISTS (SELECT 1 FROM social.blocks b
                              WHERE b.blocker_id = \(organizerID)::uuid AND b.blocked_id = u.id)
              AND NOT EXISTS (SELECT 1 FROM social.blocks b
                              WHERE b.blocker_id = u.id AND b.blocked_id = \(organizerID)::uuid)
            ON CONFLICT DO NOTHING
            RETURNING user_id::text
            """)
        return Set(try rows.map { try $0.decode(UserID.self, column: 0) })
    }
}
