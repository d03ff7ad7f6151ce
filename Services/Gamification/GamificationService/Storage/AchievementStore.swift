import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres

/// `gamification.achievements` (each user's, numbered in their balance row) and the outbox: what a change
/// announces is written in its transaction; the streams are woken after it commits (`ring`).
enum AchievementStore {
    /// The channel whose notifications (payload: a user id) wake that user's `WatchMyAchievements` streams.
    static let userChannel = "gamification_achievements"
    /// The channel whose notifications (payload: a challenge id) wake its `WatchChallengeLeaderboard` streams.
    static let challengeChannel = "gamification_results"

    /// Announces `payload` to `user`'s stream and to `WatchEvents` as `type` (the event sealed under `cipher`). The user must be enrolled
    /// (`CoinStore.enroll`): their balance row numbers their achievements.
    static func announce(
        _ payload: Kindred_Gamification_V1_Achievement.OneOf_Payload, type: String, to user: UserID,
        at now: Date, sealedWith cipher: FieldCipher, in tx: PostgresTransaction
    ) async throws {
        let achievement = try Kindred_Gamification_V1_Achievement(payload: payload).serializedBytes()
        try await tx.query(
            """
            WITH numbered AS (
                UPDATE gamification.coin_balances SET last_achievement = last_achievement + 1
                WHERE user_id = \(user) RETURNING last_achievement)
            INSERT INTO gamification.achievements (user_id, cursor, payload, created_at)
            SELECT \(user), last_achievement, \(achievement), \(now) FROM numbered
            """)
        let event = Kindred_Gamification_V1_Event(payload: payload.event)
        try await GamificationEvents.outbox.append(
            type: type, payload: try event.serializedBytes(), sealedWith: cipher, in: tx)
    }

    /// Up to `limit` of `user`'s achievements after `cursor`, in order.
    static func achievements(
        of user: UserID, after cursor: Int64, limit: Int, on db: some StatementRunner
    ) async throws -> [Kindred_Gamification_V1_Achievement] {
        let rows = try await db.pureRead(
            """
            SELECT cursor, payload FROM gamification.achievements
            WHERE user_id = \(user) AND cursor > \(cursor) ORDER BY cursor LIMIT \(limit)
            """)
        return try rows.map { row in
            let (cursor, payload) = try row.decode((Int64, [UInt8]).self)
            var achievement = try Kindred_Gamification_V1_Achievement(serializedBytes: payload)
            achievement.cursor = cursor
            return achievement
        }
    }

    /// The cursor of `user`'s newest achievement (0 for none).
    static func newest(of user: UserID, on db: some StatementRunner) async throws -> Int64 {
        let rows = try await db.pureRead(
            "SELECT last_achievement FROM gamification.coin_balances WHERE user_id = \(user)")
        return try rows.first?.decode(Int64.self) ?? 0
    }

    /// Wakes the streams of `users` and of `challenges`, in every instance, after their changes committed.
    static func ring(users: [UserID], challenges: [ChallengeID], on db: some StatementRunner) async throws {
        let channels = PostgresArray(
            users.map { _ in userChannel } + challenges.map { _ in challengeChannel })
        let payloads = PostgresArray(users.map(\.description) + challenges.map(\.description))
        try await db.query(
            "SELECT pg_notify(c, p) FROM unnest(\(channels)::text[], \(payloads)::text[]) AS n(c, p)")
    }
}

extension Kindred_Gamification_V1_Achievement.OneOf_Payload {
    /// The same payload as a `WatchEvents` event carries it.
    var event: Kindred_Gamification_V1_Event.OneOf_Payload {
        switch self {
        case .coinsChanged(let coins): .coinsChanged(coins)
        case .badgeEarned(let badge): .badgeEarned(badge)
        case .challengeFinished(let finished): .challengeFinished(finished)
        }
    }
}
