import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

/// Friend leaderboards: the caller and their confirmed friends, least time first; nobody else, and nobody on
/// the board of an app they hide.
@Suite struct FriendLeaderboardTests {
    /// anna is friends with ben and cleo; dan is nobody's friend. Today (15 June) in YouTube: anna 30 minutes,
    /// ben 10, cleo 50 (hidden), dan 5.
    private func seed(_ stack: GamificationTestStack) async throws -> (TestUser, TestUser, TestUser, TestUser)
    {
        let (anna, ben, cleo, dan) = (
            try await stack.register("anna"), try await stack.register("ben"),
            try await stack.register("cleo"),
            try await stack.register("dan")
        )
        try await stack.befriend(anna, ben)
        try await stack.befriend(anna, cleo)
        try await stack.setZone("Europe/Rome", hidden: ["youtube"], of: cleo)
        stack.clock.set("2026-06-15T12:00:00Z")
        for (user, minutes) in [(anna, 30.0), (ben, 10), (cleo, 50), (dan, 5)] {
            try await stack.upload(
                [usageSession("today", "youtube", from: "2026-06-15T08:00:00Z", minutes: minutes)], as: user)
        }
        return (anna, ben, cleo, dan)
    }

    private func board(
        _ stack: GamificationTestStack, of user: TestUser, period: Kindred_Gamification_V1_UsagePeriod = .day
    )
        async throws -> Kindred_Gamification_V1_GetFriendLeaderboardResponse
    {
        try await stack.gamification.getFriendLeaderboard(
            .init(appID: "youtube", period: period), options: user.bearer)
    }

    @Test func friendsAreRankedLeastTimeFirstWithTheCallersOwnPlace() async throws {
        try await GamificationTestStack.with { stack in
            let (anna, ben, _, _) = try await seed(stack)
            let board = try await board(stack, of: anna, period: .week)
            #expect(board.entries.map(\.userID) == [ben.id, anna.id])
            #expect(board.entries.map(\.minutes) == [10, 30])
            #expect(board.entries.map(\.place) == [1, 2])
            #expect(board.entries.map(\.username) == ["ben", ""])
            #expect(board.entries.map(\.you) == [false, true])
            #expect(board.yourPlace == 2)
        }
    }

    @Test func aFriendWhoHidesTheAppIsOffItsBoardButCountsItInTheirOwnTotals() async throws {
        try await GamificationTestStack.with { stack in
            let (anna, _, cleo, _) = try await seed(stack)
            #expect(try await board(stack, of: anna).entries.contains { $0.userID == cleo.id } == false)
            let own = try await stack.gamification.getUsageSummary(.init(period: .day), options: cleo.bearer)
            #expect(own.totalMinutes == 50)
            #expect(own.apps.map(\.appID) == ["youtube"])
            // Her own board still shows her: hiding is from friends.
            #expect(try await board(stack, of: cleo).entries.map(\.userID) == [anna.id, cleo.id])
        }
    }

    @Test func someoneWithoutFriendsIsAloneAndNobodyElseSeesThem() async throws {
        try await GamificationTestStack.with { stack in
            let (anna, ben, _, dan) = try await seed(stack)
            let alone = try await board(stack, of: dan)
            #expect(alone.entries.map(\.userID) == [dan.id])
            #expect(alone.yourPlace == 1)
            #expect(try await board(stack, of: ben).entries.map(\.userID) == [ben.id, anna.id])
            #expect(try await board(stack, of: anna).entries.contains { $0.userID == dan.id } == false)
        }
    }

    @Test func theStandingIsThePlaceThisWeekOnTheChosenAppsBoard() async throws {
        try await GamificationTestStack.with { stack in
            let (anna, _, _, _) = try await seed(stack)
            var metadata = Metadata()
            metadata.add("authorization", "Bearer \(anna.accessToken)")
            let usage = Usage(context: stack.context)
            #expect(try await usage.standing(of: try #require(UserID(anna.id)), forwarding: metadata) == nil)
            try await stack.setZone("UTC", standing: "youtube", of: anna)
            let standing = try await usage.standing(of: try #require(UserID(anna.id)), forwarding: metadata)
            #expect(standing == Usage.Standing(appID: "youtube", place: 2, people: 2))
        }
    }
}
