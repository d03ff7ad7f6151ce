import Foundation
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredTestSupport
@testable import ServiceTestSupport

/// A session of `app` from `start` (ISO 8601) lasting `minutes`, last changed at `updated` (default: its end).
func usageSession(
    _ id: String, _ app: String, from start: String, minutes: Double, updated: String? = nil
) -> Kindred_Gamification_V1_UsageSession {
    let begin = TestClock.parse(start)
    let end = begin.addingTimeInterval(minutes * 60)
    return Kindred_Gamification_V1_UsageSession(
        clientSessionID: id, appID: app, startTime: begin,
        endTime: end,
        updatedAt: updated.map(TestClock.parse) ?? end)
}

extension GamificationTestStack {
    /// Uploads `sessions` as `user`.
    @discardableResult
    func upload(_ sessions: [Kindred_Gamification_V1_UsageSession], as user: TestUser) async throws
        -> Kindred_Gamification_V1_UploadUsageResponse
    {
        try await gamification.uploadUsage(.init(sessions: sessions), options: user.bearer)
    }

    /// Sets `user`'s time zone (and the rest of their settings).
    func setZone(_ zone: String, hidden: [String] = [], standing: String = "", of user: TestUser) async throws
    {
        _ = try await gamification.setUsageSettings(
            .init(settings: .init(timeZone: zone, hiddenApps: hidden, standingAppID: standing)),
            options: user.bearer)
    }

    /// `user`'s seconds per local day (YYYY-MM-DD) in `app`, as `usage_daily` holds them.
    func dailySeconds(of user: TestUser, app: String) async throws -> [String: Int] {
        let rows = try await pool.query(
            """
            SELECT local_date::text, seconds FROM gamification.usage_daily
            WHERE user_id = \(user.id)::uuid AND app_id = \(app) AND seconds > 0
            """)
        return Dictionary(uniqueKeysWithValues: try rows.decode((String, Int).self).map { ($0.0, $0.1) })
    }

    /// How many rows of `user` the usage tables hold.
    func usageRows(of user: TestUser) async throws -> Int {
        try await pool.query(
            """
            SELECT (SELECT count(*) FROM gamification.usage_sessions WHERE user_id = \(user.id)::uuid)
                + (SELECT count(*) FROM gamification.usage_daily WHERE user_id = \(user.id)::uuid)
                + (SELECT count(*) FROM gamification.usage_settings WHERE user_id = \(user.id)::uuid)
                + (SELECT count(*) FROM gamification.usage_coverage WHERE user_id = \(user.id)::uuid)
                + (SELECT count(*) FROM gamification.usage_coverage_pending WHERE user_id = \(user.id)::uuid)
            """)[0].decode(Int.self, column: 0)
    }
}

/// Knuth's MMIX linear congruential generator, its high bits: the same numbers on every run, so a failing case
/// of a random test reproduces.
struct SeededRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 24
    }
}
