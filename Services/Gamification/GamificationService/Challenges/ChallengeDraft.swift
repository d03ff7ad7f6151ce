import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredRPC

/// A `CreateChallengeRequest` or `CreatePopularChallengeRequest` whose fields were checked: an idempotency key,
/// a name, an app id as usage uploads name apps, a daily limit of 0 to 1,440 minutes, 1 to 365 days, and a
/// difficulty (personal) or a fixed award (popular).
struct ChallengeDraft: Sendable, Equatable {
    static let requestIDLength = 1...100
    static let nameLength = 1...80
    static let dailyLimits = 0...1_440
    static let durations = 1...365
    static let popularAwards: ClosedRange<Int64> = 1...100_000
    /// Coins a day of a challenge is worth at difficulty easy; medium doubles it, hard triples it.
    static let coinsPerDay: Int64 = 10

    let requestID: String
    let name: String
    let appID: String
    let dailyLimitMinutes: Int
    let durationDays: Int
    /// 1 easy, 2 medium, 3 hard.
    let difficulty: Int
    let coinAward: Int64

    /// The personal challenge `request` describes, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Gamification_V1_CreateChallengeRequest) throws(RPCError) {
        var violations = FieldViolations()
        let difficulty: Int? =
            switch request.difficulty {
            case .easy: 1
            case .medium: 2
            case .hard: 3
            default: nil
            }
        if difficulty == nil { violations.add("difficulty", "must be easy, medium or hard") }
        try self.init(
            requestID: request.requestID, name: request.name, appID: request.appID,
            dailyLimitMinutes: Int(request.dailyLimitMinutes), durationDays: Int(request.durationDays),
            difficulty: difficulty ?? 1, coinAward: nil, violations)
    }

    /// The popular challenge `request` describes, or INVALID_ARGUMENT naming every bad field. Its difficulty
    /// follows from its limit: none of the app is hard, up to 30 minutes medium, more easy.
    init(_ request: Kindred_Gamification_V1_CreatePopularChallengeRequest) throws(RPCError) {
        var violations = FieldViolations()
        if !Self.popularAwards.contains(request.coinAward) {
            violations.add("coin_award", "must be 1 to 100,000")
        }
        let limit = Int(request.dailyLimitMinutes)
        try self.init(
            requestID: request.requestID, name: request.name, appID: request.appID, dailyLimitMinutes: limit,
            durationDays: Int(request.durationDays), difficulty: limit == 0 ? 3 : limit <= 30 ? 2 : 1,
            coinAward: request.coinAward, violations)
    }

    private init(
        requestID: String, name: String, appID: String, dailyLimitMinutes: Int, durationDays: Int,
        difficulty: Int, coinAward: Int64?, _ violations: FieldViolations
    ) throws(RPCError) {
        var violations = violations
        if !Self.requestIDLength.contains(requestID.count) {
            violations.add("request_id", "must be 1 to 100 characters")
        }
        let trimmed = String(name.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        if !name.isEmpty, !Self.nameLength.contains(trimmed.count) {
            violations.add("name", "must be 1 to 80 characters")
        }
        // The rule usage uploads follow: a challenge takes every app that usage tracking counts.
        violations.add("app_id", AppID.problem(appID))
        if !Self.dailyLimits.contains(dailyLimitMinutes) {
            violations.add("daily_limit_minutes", "must be 0 to 1,440")
        }
        if !Self.durations.contains(durationDays) { violations.add("duration_days", "must be 1 to 365") }
        try violations.throwIfAny()
        self.requestID = requestID
        self.name = trimmed.isEmpty ? "\(appID) challenge" : trimmed
        self.appID = appID
        self.dailyLimitMinutes = dailyLimitMinutes
        self.durationDays = durationDays
        self.difficulty = difficulty
        self.coinAward = coinAward ?? Self.coinsPerDay * Int64(durationDays) * Int64(difficulty)
    }

    /// The challenge this draft makes, created by `creator` (for a popular one, the admin: kept for the
    /// request_id, never shown) at `now`.
    func challenge(by creator: UserID, popular: Bool, at now: Date) -> StoredChallenge {
        StoredChallenge(
            id: ChallengeID.generate(at: now), creatorID: creator, name: name, appID: appID,
            dailyLimitMinutes: dailyLimitMinutes, durationDays: durationDays, difficulty: difficulty,
            coinAward: coinAward, popular: popular, createdAt: now, part: nil)
    }
}

extension StoredChallenge {
    /// Coins forfeiting takes: half of what completing awards, rounded down, at least 1.
    var forfeitPenalty: Int64 { max(1, coinAward / 2) }

    /// The kind of badge completing it earns.
    var badgeKind: String {
        if popular { return "popular_finisher" }
        return ["easy_finisher", "medium_finisher", "hard_finisher"][max(0, min(2, difficulty - 1))]
    }
}
