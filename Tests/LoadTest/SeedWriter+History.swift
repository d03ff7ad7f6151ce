import KindredPostgres
import LoadTestKit

/// The history a seeded stack starts with, written after the users, per batch of users in one transaction per database:
/// conversations between friends with their messages (`ConversationHistory`: social's conversations, messages and
/// inboxes, as `SendMessage` leaves them), and 30 days of app usage for the screen-time users (gamification's settings,
/// sessions and the per-day totals the leaderboards read, as `UploadUsage` leaves them, their days pending the sealed
/// counts an upload builds). Message bodies and usage sessions (with `started_on`, the UTC day gamification narrows
/// them by) are written in their plaintext columns, rows "from before sealing" that the services read as they are until
/// `keys rotate-data` seals them (the README says why). Every insert skips rows already there, so a batch cut short is
/// written again.
struct HistorySeedWriter: Sendable {
    let social: PostgresPool
    let gamification: PostgresPool
    let seed: SeedFile

    static let usageDays = 30
    /// Sessions a day, each on another app (at most `VirtualUser.apps.count`).
    static let sessionsPerDay = 3

    var conversations: ConversationHistory {
        ConversationHistory(users: seed.users, friendsPerSide: seed.friendsPerSide)
    }

    /// The history of users `range`.
    func write(_ range: Range<Int>) async throws {
        // The tag is hex the tool generated, so it can be SQL text; every number is an Int.
        guard seed.seededUsers.tag.allSatisfy(\.isHexDigit) else {
            throw ToolError("The seed file's secret is not hex.")
        }
        let users = "generate_series(\(range.lowerBound), \(range.upperBound - 1)) n"
        if conversations.reach > 0 {
            try await social.transaction { tx in
                for statement in conversationStatements(users) {
                    try await tx.query(PostgresQuery(unsafeSQL: statement))
                }
            }
        }
        try await gamification.transaction { tx in
            for statement in usageStatements(users) {
                try await tx.query(PostgresQuery(unsafeSQL: statement))
            }
        }
    }

    /// Messages, both rows of each conversation (pointing at its last message), and each user's inbox at its
    /// last place. One transaction, so `now()`, which every message's time and id derive from, is the same in
    /// all three.
    private func conversationStatements(_ users: String) -> [String] {
        let (count, reach, length) = (
            seed.users, conversations.reach, ConversationHistory.messagesPerConversation
        )
        let tag = seed.seededUsers.tag
        // Message `j` of the conversation user n opened with the friend d ahead (ConversationHistory), sent
        // three days apart in turn, the last within the last three days.
        let messages = """
            SELECT n, (n + d) % \(count) AS partner, j,
                CASE WHEN j % 2 = 0 THEN n ELSE (n + d) % \(count) END AS sender,
                CASE WHEN j % 2 = 0 THEN (n + d) % \(count) ELSE n END AS recipient,
                (2 * (d - 1) + j % 2) * \(length / 2) + j / 2 + 1 AS place,
                (n * \(reach) + d - 1) * \(length) + j AS number,
                \(id(13, "n * \(reach) + d - 1")) AS conversation_id,
                now() - (\(length) - j) * interval '3 days' + (n * 7 + d * 131) % 1440 * interval '1 minute'
                    AS sent_at
            FROM \(users), generate_series(1, \(reach)) d, generate_series(0, \(length - 1)) j
            """
        // UUIDv7, as social's own ids: the time first (a conversation reads newest first by id), then the tag
        // and the message's number.
        let messageID = """
            (substr(lpad(to_hex((extract(epoch FROM m.sent_at) * 1000)::bigint), 12, '0'), 1, 8) || '-' ||
                substr(lpad(to_hex((extract(epoch FROM m.sent_at) * 1000)::bigint), 12, '0'), 9, 4) ||
                '-7\(tag.prefix(3))-8\(tag.dropFirst(3).prefix(3))-' || lpad(to_hex(m.number), 12, '0'))::uuid
            """
        return [
            """
            INSERT INTO social.messages (conversation_id, id, sender_id, recipient_id, body, sent_at, request_id,
                recipient_seq)
            SELECT m.conversation_id, \(messageID), \(id(0, "m.sender")), \(id(0, "m.recipient")),
                (ARRAY['Hi! How are you?', 'All good here, and you?', 'Busy week. Free on Saturday?',
                    'Yes! What time?', 'Ten, at the park?', 'Perfect. I''ll bring coffee.',
                    'See you there!', 'That was fun, thank you!', 'Same again next week?',
                    'Count me in.'])[1 + m.j % 10],
                m.sent_at, 'loadtest-message-' || m.number, m.place
            FROM (\(messages)) m
            ON CONFLICT DO NOTHING
            """,
            """
            INSERT INTO social.conversations (user_id, other_id, conversation_id, last_message_id, last_message_at)
            SELECT \(id(0, "side.user_index")), \(id(0, "side.other_index")), m.conversation_id, \(messageID),
                m.sent_at
            FROM (\(messages)) m,
                LATERAL (VALUES (m.n, m.partner), (m.partner, m.n)) AS side (user_index, other_index)
            WHERE m.j = \(length - 1)
            ON CONFLICT DO NOTHING
            """,
            """
            INSERT INTO social.message_inboxes (user_id, last_seq)
            SELECT \(id(0, "n")), \(conversations.inboxLength) FROM \(users)
            ON CONFLICT DO NOTHING
            """,
        ]
    }

    /// The screen-time users' settings (UTC), then `usageDays` days before today of `sessionsPerDay` sessions
    /// of 10–59 minutes, each on its own app and within its day, so each is one per-day total.
    private func usageStatements(_ users: String) -> [String] {
        let apps = VirtualUser.apps.map { "'\($0)'" }.joined(separator: ", ")
        let slots = Persona.screenTimeSlots.map(String.init).joined(separator: ", ")
        let screenTime = "n % \(BabyFamilies.groupSize) IN (\(slots))"
        let sessions = """
            FROM \(users), generate_series(1, \(Self.usageDays)) ago,
                generate_series(0, \(Self.sessionsPerDay - 1)) s,
                LATERAL (SELECT (now() AT TIME ZONE 'UTC')::date - ago AS date) d,
                LATERAL (SELECT (d.date + ((8 + 5 * s) * 60 + n % 60) * interval '1 minute') AT TIME ZONE 'UTC'
                        AS started_at,
                    (10 + (n * 7 + ago * 3 + s * 11) % 50) * 60 AS seconds,
                    (ARRAY[\(apps)])[1 + (n + (d.date - date '2000-01-01') + s) % \(VirtualUser.apps.count)]
                        AS app_id
                ) t
            WHERE \(screenTime)
            """
        return [
            """
            INSERT INTO gamification.usage_settings (user_id)
            SELECT \(id(0, "n")) FROM \(users) WHERE \(screenTime)
            ON CONFLICT DO NOTHING
            """,
            """
            INSERT INTO gamification.usage_sessions (user_id, client_session_id, app_id, started_at, ended_at,
                updated_at, time_zone, started_on)
            SELECT \(id(0, "n")), 'loadtest-' || d.date || '-' || s, t.app_id, t.started_at,
                t.started_at + t.seconds * interval '1 second', t.started_at + t.seconds * interval '1 second',
                'UTC', (t.started_at AT TIME ZONE 'UTC')::date
            \(sessions)
            ON CONFLICT DO NOTHING
            """,
            """
            INSERT INTO gamification.usage_daily (user_id, local_date, app_id, seconds)
            SELECT \(id(0, "n")), d.date, t.app_id, t.seconds
            \(sessions)
            ON CONFLICT DO NOTHING
            """,
            // The UTC days the sessions touch (a session may end the next day) have no sealed counts yet: listed
            // as pending, as gamification's migration 20 lists the days of sessions stored before it, so the
            // first upload that touches one builds its counts from these sessions.
            """
            INSERT INTO gamification.usage_coverage_pending (user_id, utc_day)
            SELECT seeded.user_id, seeded.utc_day + later.days
            FROM (SELECT DISTINCT \(id(0, "n")) AS user_id, (t.started_at AT TIME ZONE 'UTC')::date AS utc_day
                \(sessions)) seeded
            CROSS JOIN (VALUES (0), (1)) AS later (days)
            ON CONFLICT DO NOTHING
            """,
        ]
    }

    private func id(_ space: Int, _ n: String) -> String {
        SeedSQL.id(tag: seed.seededUsers.tag, space: space, n)
    }
}
