import KindredHandlers
import KindredPostgres

/// What `keys rotate-data` reads and writes of the calendar events' texts (`CalendarTexts`).
extension CalendarEventStore {
    /// Up to `limit` events after `after` (nil: from the first), in key order, with their stored texts.
    static func texts(after: CalendarTexts.Key?, limit: Int, on db: PostgresPool) async throws
        -> [(CalendarTexts.Key, StoredTexts)]
    {
        try await db.pureRead(
            """
            SELECT name, description, location, texts_sealed, profile_id, event_id FROM family.calendar_events
            WHERE (profile_id, event_id) > (
                coalesce(\(after?.profile)::uuid, '00000000-0000-0000-0000-000000000000'),
                coalesce(\(after?.event)::uuid, '00000000-0000-0000-0000-000000000000'))
            ORDER BY profile_id, event_id LIMIT \(limit)
            """
        ).map { row in
            let key = CalendarTexts.Key(
                profile: try row.decode(BabyProfileID.self, column: 4),
                event: try row.decode(CalendarEventID.self, column: 5))
            return (key, try storedTexts(row))
        }
    }

    /// Replaces the texts of `key` with `sealed`, if they are still the ones read (`was`).
    static func reseal(
        _ key: CalendarTexts.Key, was: StoredTexts, as sealed: [UInt8], in tx: PostgresTransaction
    ) async throws {
        try await tx.query(
            """
            UPDATE family.calendar_events
            SET texts_sealed = \(sealed)::bytea, name = NULL, description = NULL, location = NULL
            WHERE profile_id = \(key.profile)::uuid AND event_id = \(key.event)::uuid
              AND texts_sealed IS NOT DISTINCT FROM \(was.sealed)::bytea
            """)
    }
}
