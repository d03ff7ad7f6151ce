import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// One decided participant on a challenge's leaderboard, numbered in the order decisions committed.
struct ChallengeResult: Sendable, Equatable {
    let cursor: Int64
    let userID: UserID
    let outcome: String
    let minutesUsed: Int64
    let decidedAt: Date

    /// A row of `cursor, user_id, outcome, minutes_used, decided_at`.
    init(row: PostgresRow) throws {
        (cursor, userID, outcome, minutesUsed, decidedAt) = try row.decode(
            (Int64, UserID, String, Int64, Date).self)
    }

    var proto: Kindred_Gamification_V1_ChallengeResult {
        Kindred_Gamification_V1_ChallengeResult(
            cursor: cursor, userID: userID.description, outcome: ParticipantStates.proto(outcome),
            minutesUsed: minutesUsed, decidedAt: decidedAt)
    }
}

/// What a device enforces today for one challenge.
struct Restriction: Sendable, Equatable {
    let challengeID: ChallengeID
    let name: String
    let appID: String
    let dailyLimitMinutes: Int
    let secondsUsedToday: Int
    let challengeEndsAt: Date
    let dayEndsAt: Date

    /// Whole minutes used so far today, rounded down.
    var minutesUsedToday: Int { secondsUsedToday / 60 }

    /// Whole minutes still allowed today, never below zero: the seconds left, rounded down.
    var minutesLeftToday: Int { max(0, dailyLimitMinutes * 60 - secondsUsedToday) / 60 }

    var proto: Kindred_Gamification_V1_Restriction {
        Kindred_Gamification_V1_Restriction(
            challengeID: challengeID.description, challengeName: name, appID: appID,
            dailyLimitMinutes: Int32(dailyLimitMinutes), minutesUsedToday: Int32(minutesUsedToday),
            minutesLeftToday: Int32(minutesLeftToday), dayEndsAt: dayEndsAt,
            challengeEndsAt: challengeEndsAt)
    }
}
