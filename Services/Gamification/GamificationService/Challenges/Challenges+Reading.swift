import KindredHandlers
import KindredMessages
import KindredRPC

/// `ListChallenges`, `ListPopularChallenges`, `GetActiveRestrictions` and the challenge leaderboards.
extension Challenges {
    /// The states each list holds.
    static func states(of list: Kindred_Gamification_V1_ChallengeList) -> [String]? {
        switch list {
        case .active: ["active"]
        case .invitations: ["invited"]
        case .finished: ["completed", "failed", "forfeited"]
        default: nil
        }
    }

    /// A page of `user`'s challenges in `states`, the most recently changed first.
    func list(of user: UserID, states: [String], page: ChallengePage) async throws
        -> Kindred_Gamification_V1_ListChallengesResponse
    {
        let read = try await ChallengeStore.list(
            of: user, states: states, after: page.after, limit: page.size + 1, on: database)
        let (served, next) = page.cut(read) { .init(at: $0.part?.updatedAt ?? .distantPast, id: $0.id) }
        return Kindred_Gamification_V1_ListChallengesResponse(challenges: served.map(\.proto), page: next)
    }

    /// A page of the popular challenges, the newest first, with `user`'s part in each.
    func popular(for user: UserID, page: ChallengePage) async throws
        -> Kindred_Gamification_V1_ListPopularChallengesResponse
    {
        let read = try await ChallengeStore.popular(
            for: user, after: page.after, limit: page.size + 1, on: database)
        let (served, next) = page.cut(read) { .init(at: $0.createdAt, id: $0.id) }
        return Kindred_Gamification_V1_ListPopularChallengesResponse(
            challenges: served.map(\.proto), page: next)
    }

    /// What `user`'s devices enforce now.
    func restrictions(of user: UserID) async throws -> [Restriction] {
        try await ChallengeStore.restrictions(of: user, at: clock.now, on: database)
    }

    /// A page of `id`'s leaderboard for `user`, who must be able to see the challenge.
    func leaderboard(of id: ChallengeID, for user: UserID, offset: Int, size: Int) async throws
        -> (results: [ChallengeResult], active: Int64)
    {
        _ = try await visible(id, to: user)
        return try await ChallengeStore.leaderboard(of: id, offset: offset, limit: size, on: database)
    }

    /// Sends `id`'s results after `cursor` (0: from the first), then each new one as it commits, to `user`, who
    /// must be able to see the challenge, until the bell closes or the calling task is cancelled.
    func watchLeaderboard(
        of id: ChallengeID, for user: UserID, after cursor: Int64,
        send: (Kindred_Gamification_V1_ChallengeResult) async throws -> Void
    ) async throws {
        if cursor < 0 { throw FieldViolations.single("after_cursor", "must not be negative") }
        _ = try await visible(id, to: user)
        try await results.stream(to: id.description) { [database] in
            let newest = try await ChallengeStore.newestResult(of: id, on: database)
            if cursor > newest { throw FieldViolations.single("after_cursor", "is past the newest result") }
            return (cursor, cursor < newest)
        } send: { result in
            try await send(result.proto)
        }
    }
}
