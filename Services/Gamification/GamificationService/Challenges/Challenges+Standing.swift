import KindredHandlers
import KindredMessages
import KindredRPC

/// Coins, the global ranking and badges as the caller reads them; `balance(of:)` and `globalPosition(of:)`
/// are what `GetMyStanding` shows.
extension Challenges {
    /// Entries in the page around a user when a request leaves it at 0, and at most.
    static let rankingPageSizes = (default: 21, maximum: 101)

    /// `user`'s coins: 0 when they never took part in a challenge.
    func balance(of user: UserID) async throws -> Int64 {
        try await CoinStore.balance(of: user, on: database) ?? 0
    }

    /// `user`'s position in the global ranking (1 + how many hold more coins), among all users: one who never
    /// took part in a challenge stands with everyone at 0.
    func globalPosition(of user: UserID) async throws -> Int64 {
        try await RankingStore.entry(of: user, on: database).position
    }

    /// `user`'s entry in the ranking and `size` entries around it (as many above as below where there are),
    /// and how many users are ranked. Every user has a place: one who never took part in a challenge stands
    /// at 0 coins, and so does an id that names nobody, word for word.
    func ranking(around user: UserID, size: Int) async throws
        -> Kindred_Gamification_V1_GetGlobalRankingResponse
    {
        let above = (size - 1) / 2
        let page = try await RankingStore.page(
            around: user, above: above, below: size - 1 - above, on: database)
        return Kindred_Gamification_V1_GetGlobalRankingResponse(
            user: page.user.proto, entries: page.entries.map(\.proto), rankedUsers: page.ranked)
    }

    /// A page of `user`'s badges, the newest first.
    func badges(of user: UserID, page: ChallengePage) async throws
        -> Kindred_Gamification_V1_ListBadgesResponse
    {
        let read = try await BadgeStore.badges(
            of: user, after: page.after, limit: page.size + 1, on: database)
        let (served, next) = page.cut(read) { ChallengePage.Position(at: $0.earnedAt, id: $0.challenge) }
        return Kindred_Gamification_V1_ListBadgesResponse(badges: served.map(\.badge), page: next)
    }

    /// Sends `user`'s achievements after `cursor` (0: from the first), then each new one as it commits, until the
    /// bell closes (the drain) or the calling task is cancelled. A negative cursor, or one past the newest,
    /// is INVALID_ARGUMENT.
    func watchAchievements(
        of user: UserID, after cursor: Int64, send: (Kindred_Gamification_V1_Achievement) async throws -> Void
    ) async throws {
        if cursor < 0 { throw FieldViolations.single("after_cursor", "must not be negative") }
        try await achievements.stream(to: user.description) { [database] in
            let newest = try await AchievementStore.newest(of: user, on: database)
            if cursor > newest {
                throw FieldViolations.single("after_cursor", "is past your newest achievement")
            }
            return (cursor, cursor < newest)
        } send: { achievement in
            try await send(achievement)
        }
    }
}

extension RankingStore.Entry {
    var proto: Kindred_Gamification_V1_RankedUser {
        Kindred_Gamification_V1_RankedUser(userID: userID.description, coins: coins, position: position)
    }
}
