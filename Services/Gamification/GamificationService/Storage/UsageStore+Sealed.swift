import FoundationEssentials
import KindredHandlers
import KindredPostgres

/// Stored sessions in the form they are kept (`UsageSessions.Stored`: sealed, or plaintext from before sealing
/// began), for the reads that need their app and times: the versions a batch replaces, and a child's sessions
/// around a reward unlock. A row's `started_on` (the UTC day it started) is all SQL can narrow them by.
extension UsageStore {
    /// The stored versions `rows` (`versionsAndCountsQuery`'s answer) hold, by session id, with the zone each
    /// was counted in.
    static func versions(_ rows: PostgresRows) throws -> [String: (
        stored: UsageSessions.Stored, zone: String
    )] {
        var versions: [String: (stored: UsageSessions.Stored, zone: String)] = [:]
        for row in rows where try row.decode(String?.self, column: 0) != nil {
            let stored = try storedSession(row)
            versions[stored.clientSessionID] = (stored, try row.decode(String.self, column: 6))
        }
        return versions
    }

    /// `user`'s sessions that started from `from` to `until` (whole UTC days around them, filtered exactly
    /// once opened), opened.
    static func sessions(
        of user: UserID, startingFrom from: Date, until: Date, sealing: UsageSessions,
        on db: some StatementRunner
    ) async throws -> [UsageBatch.Session] {
        let rows = try await db.pureRead(
            """
            SELECT client_session_id, app_id, started_at, ended_at, updated_at, session_sealed
            FROM gamification.usage_sessions
            WHERE user_id = \(user)::uuid AND started_on >= (\(from)::timestamptz AT TIME ZONE 'UTC')::date
                AND started_on <= (\(until)::timestamptz AT TIME ZONE 'UTC')::date
            """)
        return try rows.map { try sealing.open(try storedSession($0), of: user) }
            .filter { $0.start >= from && $0.start < until }
    }

    /// The session in a row's first six columns: client_session_id, the four plaintext columns, session_sealed.
    static func storedSession(_ row: PostgresRow) throws -> UsageSessions.Stored {
        let id = try row.decode(String.self, column: 0)
        let sealed = try row.decode([UInt8]?.self, column: 5)
        guard sealed == nil else { return .init(clientSessionID: id, plain: nil, sealed: sealed) }
        return .init(
            clientSessionID: id,
            plain: UsageBatch.Session(
                clientSessionID: id, appID: try row.decode(String.self, column: 1),
                start: try row.decode(Date.self, column: 2), end: try row.decode(Date.self, column: 3),
                updatedAt: try row.decode(Date.self, column: 4)),
            sealed: nil)
    }
}
