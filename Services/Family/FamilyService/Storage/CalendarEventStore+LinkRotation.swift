import KindredHandlers
import KindredPostgres

/// What `keys rotate-data` reads and writes of the calendar events' video-call links (`CalendarTexts.link`).
extension CalendarEventStore {
    /// Up to `limit` events' links after `after` (nil: from the first), in key order.
    static func links(after: CalendarTexts.Key?, limit: Int, on db: PostgresPool) async throws
        -> [(CalendarTexts.Key, StoredText)]
    {
        try await db.pureRead(
            """
            SELECT profile_id, event_id, video_call_url, video_call_url_sealed FROM family.calendar_events
            WHERE (profile_id, event_id) > (
                coalesce(\(after?.profile)::uuid, '00000000-0000-0000-0000-000000000000'),
                coalesce(\(after?.event)::uuid, '00000000-0000-0000-0000-000000000000'))
            ORDER BY profile_id, event_id LIMIT \(limit)
            """
        ).decode((BabyProfileID, CalendarEventID, String, [UInt8]?).self).map {
            (CalendarTexts.Key(profile: $0, event: $1), StoredText(plain: $3 == nil ? $2 : nil, sealed: $3))
        }
    }

    /// Replaces the link of `key` with `sealed`, if it is still the one read (`was`).
    static func resealLink(
        _ key: CalendarTexts.Key, was: StoredText, as sealed: [UInt8], in tx: PostgresTransaction
    ) async throws {
        try await tx.query(
            """
            UPDATE family.calendar_events SET video_call_url_sealed = \(sealed)::bytea, video_call_url = ''
            WHERE profile_id = \(key.profile)::uuid AND event_id = \(key.event)::uuid
              AND video_call_url_sealed IS NOT DISTINCT FROM \(was.sealed)::bytea
            """)
    }
}
