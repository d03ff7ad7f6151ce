@testable import ServiceTestSupport
import Foundation
import KindredMessages
@testable import KindredPostgres
import KindredHandlers
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// The graph's lists page through thousands of entries by keyset: each entry once, newest first, every page
/// one index range that never reads or sorts the entries before it.
@Suite struct GraphPagingTests {
    @Test func fiveThousandFollowersPageAt500EachSeenOnceInOrder() async throws {
        try await SocialTestStack.with { stack in
            let star = try await stack.register("star", age: 30)
            let expected = try await Self.addFollowers(5_000, of: star, stack)
            var seen: [String] = []
            var token = ""
            var pages = 0
            repeat {
                let page = try await stack.social.listFollowers(
                    .init(page: .init(pageSize: 500, pageToken: token)), options: star.bearer)
                #expect(page.followers.allSatisfy { $0.person?.username.hasPrefix("fan") == true })
                seen += page.followers.compactMap(\.person?.userID)
                token = page.page?.nextPageToken ?? ""
                pages += 1
            } while !token.isEmpty && pages <= 11
            #expect(pages == 10)
            #expect(Set(seen).count == 5_000)
            #expect(seen == expected)
        }
    }

    @Test func everyPageOfTheFollowersListIsAnIndexRangeNotASortOfTheWholeList() async throws {
        try await SocialTestStack.with { stack in
            let star = try await stack.register("star", age: 30)
            _ = try await Self.addFollowers(5_000, of: star, stack)
            let first = try await stack.social.listFollowers(
                .init(page: .init(pageSize: 500)), options: star.bearer)
            var violations = FieldViolations()
            for token in ["", first.page?.nextPageToken ?? ""] {
                let page = GraphPage(
                    .followers, of: star.userID, .init(pageSize: 500, pageToken: token), &violations)
                let plan = try await Self.plan(of: GraphStore.query(page), stack)
                #expect(plan.contains("Scan using follows_followers on follows"), "\(plan)")
                #expect(!plan.contains("Sort"), "\(plan)")
                // A later page starts at its position inside the index, not by skipping the entries before it.
                #expect(
                    token.isEmpty
                        || plan.contains(#"Index Cond: ((followee_id = "#) && plan.contains("AND (since <="))
            }
            #expect(violations.violations.isEmpty)
        }
    }

    @Test func aPageTokenServesOnlyTheListItWasMadeFor() async throws {
        try await SocialTestStack.with { stack in
            let (anna, ben, cleo) = try await stack.adults("anna", "ben", "cleo").triple
            try await stack.followByRPC(ben, anna)
            try await stack.followByRPC(cleo, anna)
            try await stack.followByRPC(anna, ben)
            try await stack.followByRPC(anna, cleo)
            let page = Kindred_Common_V1_PageRequest(pageSize: 1)
            let followers = try await stack.social.listFollowers(.init(page: page), options: anna.bearer)
            let token = try #require(followers.page?.nextPageToken)
            let refusals = [
                await rpcError {
                    try await stack.social.listFollowing(
                        .init(page: .init(pageToken: token)), options: anna.bearer)
                },
                await rpcError {
                    try await stack.social.listFollowers(
                        .init(page: .init(pageToken: token)), options: ben.bearer)
                },
                await rpcError {
                    try await stack.social.listFollowers(
                        .init(page: .init(pageToken: "garbage!")), options: anna.bearer)
                },
            ]
            for refusal in refusals { #expect(refusal?.badFields == ["page.page_token"]) }
            let next = try await stack.social.listFollowers(
                .init(page: .init(pageToken: token)), options: anna.bearer)
            #expect(Set((followers.followers + next.followers).map(\.person?.username)) == ["ben", "cleo"])
        }
    }

    @Test func friendRequestsListNeedsADirectionAndPagesEachWay() async throws {
        try await SocialTestStack.with { stack in
            let users = try await stack.adults("anna", "ben", "cleo", "dan")
            let (anna, ben, cleo, dan) = (users[0], users[1], users[2], users[3])
            try await stack.ask(ben, anna)
            stack.clock.advance(seconds: 1)
            try await stack.ask(cleo, anna)
            try await stack.ask(anna, dan)
            let unspecified = await rpcError {
                try await stack.social.listFriendRequests(
                    .init(page: .init(pageSize: -1)), options: anna.bearer)
            }
            #expect(unspecified?.badFields == ["direction", "page.page_size"])
            let first = try await stack.social.listFriendRequests(
                .init(direction: .incoming, page: .init(pageSize: 1)), options: anna.bearer)
            let token = first.page?.nextPageToken ?? ""
            let second = try await stack.social.listFriendRequests(
                .init(direction: .incoming, page: .init(pageSize: 1, pageToken: token)), options: anna.bearer)
            #expect((first.requests + second.requests).map(\.sender?.username) == ["cleo", "ben"])
            #expect(second.page?.nextPageToken == "")
            let outgoing = await rpcError {
                try await stack.social.listFriendRequests(
                    .init(direction: .outgoing, page: .init(pageToken: token)), options: anna.bearer)
            }
            #expect(outgoing?.badFields == ["page.page_token"])
            let sent = try await stack.social.listFriendRequests(
                .init(direction: .outgoing), options: anna.bearer)
            #expect(sent.requests.map(\.sender?.username) == ["anna"])
            #expect(sent.requests.map(\.recipient?.userID) == [dan.id])
        }
    }

    /// Adds `count` followers of `user` straight to the tables, in groups of three made at the same instant
    /// (so the id breaks ties), and returns their ids in the order the list must serve them.
    static func addFollowers(_ count: Int, of user: TestUser, _ stack: SocialTestStack) async throws
        -> [String]
    {
        try await stack.pool.query(
            """
            WITH fans AS (SELECT gen_random_uuid() AS id, i FROM generate_series(1, \(count)) AS i),
            people AS (
                INSERT INTO social.people (user_id, username, minor, learned_at)
                SELECT id, 'fan' || i, false, now() FROM fans
            )
            INSERT INTO social.follows (follower_id, followee_id, since)
            SELECT id, \(user.id)::uuid, \(stack.clock.now) - (i / 3) * interval '1001 microseconds' FROM fans
            """)
        try await stack.pool.query("ANALYZE social.follows")
        return try await stack.pool.query(
            """
            SELECT follower_id::text FROM social.follows WHERE followee_id = \(user.id)::uuid
            ORDER BY since DESC, follower_id
            """
        ).decode(String.self)
    }

    /// PostgreSQL's plan for `query`, with its binds, as text.
    static func plan(of query: PostgresQuery, _ stack: SocialTestStack) async throws -> String {
        var explain = PostgresQuery(unsafeSQL: "EXPLAIN " + query.sql)
        explain.binds = query.binds
        return try await stack.pool.query(explain).decode(String.self).joined(separator: "\n")
    }
}
