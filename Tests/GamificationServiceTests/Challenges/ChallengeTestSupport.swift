import Foundation
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredPostgres
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

extension GamificationTestStack {
    /// The challenges part over the stack's database and clock, for rules tested below the RPCs.
    var challenges: Challenges { Challenges(context: context) }

    /// `user` creates a challenge on `app` through the RPC.
    func createChallenge(
        _ user: TestUser, app: String = "youtube", limit: Int32 = 30, days: Int32 = 2,
        difficulty: Kindred_Gamification_V1_ChallengeDifficulty = .medium,
        requestID: String = UUID().uuidString
    ) async throws -> Kindred_Gamification_V1_Challenge {
        try #require(
            try await gamification.createChallenge(
                .init(
                    requestID: requestID, appID: app, dailyLimitMinutes: limit, durationDays: days,
                    difficulty: difficulty),
                options: user.bearer
            ).challenge)
    }

    /// Records `minutes` of `app` for `user` on `day` (their local date), as gamusage's ingest keeps it.
    func recordUsage(_ user: TestUser, app: String = "youtube", on day: String, minutes: Int) async throws {
        try await pool.query(
            """
            INSERT INTO gamification.usage_daily (user_id, local_date, app_id, seconds)
            VALUES (\(user.id)::uuid, \(day)::date, \(app), \(minutes * 60))
            ON CONFLICT (user_id, local_date, app_id) DO UPDATE SET seconds = excluded.seconds
            """)
    }

    /// Gives `user` `coins` through the ledger, as a completion would.
    func grant(_ coins: Int64, to user: TestUser) async throws {
        let id = try #require(UserID(user.id))
        let now = clock.now
        _ = try await pool.transaction { tx in
            try await CoinStore.apply(
                coins, to: id, key: UUID().uuidString, reason: "test", challenge: nil, at: now, in: tx)
        }
    }
}

extension DateComponents {
    /// The date as PostgreSQL writes it, `2026-06-15`.
    var text: String { String(format: "%04d-%02d-%02d", year!, month!, day!) }

    /// The day after this one.
    var next: String {
        let date = ISO8601DateFormatter().date(from: "\(text)T00:00:00Z")!.addingTimeInterval(86_400)
        return String(ISO8601DateFormatter().string(from: date).prefix(10))
    }
}

extension Kindred_Gamification_V1_Challenge {
    var id: ChallengeID { ChallengeID(challengeID)! }
}
