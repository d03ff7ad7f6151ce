import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// A challenge as one user sees it: its terms, and their part in it (none for a popular one they did not join).
struct StoredChallenge: Sendable, Equatable {
    /// One user's part: their state and, once they take part, their days.
    struct Part: Sendable, Equatable {
        let state: String
        let invitedBy: UserID?
        let firstDay: String?
        let lastDay: String?
        let endsAt: Date?
        let updatedAt: Date
    }

    let id: ChallengeID
    let creatorID: UserID?
    let name: String
    let appID: String
    let dailyLimitMinutes: Int
    let durationDays: Int
    let difficulty: Int
    let coinAward: Int64
    let popular: Bool
    let createdAt: Date
    let part: Part?

    /// The columns `init(row:)` reads, of `gamification.challenges c` left-joined to the participant `p`.
    static let columns = """
        c.id, c.creator_id, c.name, c.app_id, c.daily_limit_minutes, c.duration_days, c.difficulty, c.coin_award,
        c.popular, c.created_at, p.state, p.invited_by, p.first_day::text, p.last_day::text, p.ends_at, p.updated_at
        """

    init(
        id: ChallengeID, creatorID: UserID?, name: String, appID: String, dailyLimitMinutes: Int,
        durationDays: Int, difficulty: Int, coinAward: Int64, popular: Bool, createdAt: Date, part: Part?
    ) {
        self.id = id
        self.creatorID = creatorID
        self.name = name
        self.appID = appID
        self.dailyLimitMinutes = dailyLimitMinutes
        self.durationDays = durationDays
        self.difficulty = difficulty
        self.coinAward = coinAward
        self.popular = popular
        self.createdAt = createdAt
        self.part = part
    }

    /// The challenge in a row of `columns`.
    init(row: PostgresRow) throws {
        let (
            id, creatorID, name, appID, limit, days, difficulty, award, popular, createdAt, state, invitedBy,
            firstDay,
            lastDay, endsAt, updatedAt
        ) = try row.decode(
            (
                ChallengeID, UserID?, String, String, Int, Int, Int, Int64, Bool, Date, String?, UserID?,
                String?,
                String?, Date?, Date?
            ).self)
        self.init(
            id: id, creatorID: creatorID, name: name, appID: appID, dailyLimitMinutes: limit,
            durationDays: days,
            difficulty: difficulty, coinAward: award, popular: popular, createdAt: createdAt,
            part: state.map { state in
                Part(
                    state: state, invitedBy: invitedBy, firstDay: firstDay, lastDay: lastDay, endsAt: endsAt,
                    updatedAt: updatedAt ?? .distantPast)
            })
    }

    /// Whether the user's part is over: decided, forfeited, declined, or past its last day at `now`.
    func isOver(at now: Date) -> Bool {
        guard let part else { return false }
        if part.state != "active" && part.state != "invited" { return true }
        return part.endsAt.map { $0 <= now } ?? false
    }

    /// The challenge as its user sees it.
    var proto: Kindred_Gamification_V1_Challenge {
        Kindred_Gamification_V1_Challenge(
            challengeID: id.description, name: name, appID: appID,
            dailyLimitMinutes: Int32(dailyLimitMinutes),
            durationDays: Int32(durationDays), difficulty: .init(rawValue: Int32(difficulty)),
            coinAward: coinAward,
            popular: popular, creatorUserID: popular ? "" : creatorID?.description ?? "",
            state: part.map { ParticipantStates.proto($0.state) } ?? .unspecified,
            firstDay: part?.firstDay.flatMap(Self.date), lastDay: part?.lastDay.flatMap(Self.date),
            endsAt: part?.endsAt,
            invitedByUserID: part?.invitedBy?.description ?? "")
    }

    /// A `date` column's text (`2026-06-15`) as a calendar date.
    private static func date(_ text: String) -> DateComponents? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return DateComponents(year: parts[0], month: parts[1], day: parts[2])
    }
}

/// The states of `gamification.challenge_participants.state` and of the API.
enum ParticipantStates {
    static func proto(_ state: String) -> Kindred_Gamification_V1_ParticipantState {
        switch state {
        case "invited": .invited
        case "active": .active
        case "completed": .completed
        case "failed": .failed
        case "forfeited": .forfeited
        case "declined": .declined
        default: .unspecified
        }
    }
}
