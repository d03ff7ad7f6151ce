import KindredHandlers
import KindredMessages
import KindredRPC

/// `GetFriendLeaderboard`, and the standing `GetMyStanding` shows. Only the caller's confirmed friends (as
/// social lists them for the caller's own token) are ever on a board, and only as totals.
extension Usage {
    /// A place on a friend leaderboard: the caller's, among how many people.
    struct Standing: Sendable, Equatable {
        let appID: String
        let place: Int
        let people: Int
    }

    /// The board `request` asks for, for `me`, whose token is in `requestMetadata`.
    func leaderboard(
        _ request: Kindred_Gamification_V1_GetFriendLeaderboardRequest, for me: UserID,
        forwarding requestMetadata: Metadata
    ) async throws -> Kindred_Gamification_V1_GetFriendLeaderboardResponse {
        var violations = FieldViolations()
        violations.add("app_id", AppID.problem(request.appID))
        let period = UsagePeriodRequest(request.period, date: nil, &violations)
        try violations.throwIfAny()
        let confirmed = try await friends.friends(forwarding: requestMetadata)
        let board = try await LeaderboardStore.board(
            of: request.appID, over: period, for: me, friends: confirmed.map(\.id), now: clock.now,
            on: database
        )
        let usernames = Dictionary(
            confirmed.map { ($0.id, $0.username) }, uniquingKeysWith: { first, _ in first })
        let entries = board.rows.map { row in
            Kindred_Gamification_V1_LeaderboardEntry(
                place: Int32(row.place), userID: row.userID.description,
                username: usernames[row.userID] ?? "",
                minutes: Int32(row.seconds / 60), you: row.userID == me)
        }
        return Kindred_Gamification_V1_GetFriendLeaderboardResponse(
            firstDay: UsagePeriodRequest.proto(board.firstDay),
            lastDay: UsagePeriodRequest.proto(board.lastDay),
            entries: entries, yourPlace: entries.first(where: \.you)?.place ?? 0)
    }

    /// `me`'s place this week on the friend leaderboard of the app they chose in their settings (standing
    /// app); nil when they chose none. For `GetMyStanding`; `requestMetadata` carries `me`'s token.
    func standing(of me: UserID, forwarding requestMetadata: Metadata) async throws -> Standing? {
        let app = try await settings(of: me).standingAppID
        guard !app.isEmpty else { return nil }
        let board = try await leaderboard(
            Kindred_Gamification_V1_GetFriendLeaderboardRequest(appID: app, period: .week), for: me,
            forwarding: requestMetadata)
        return Standing(appID: app, place: Int(board.yourPlace), people: board.entries.count)
    }
}
