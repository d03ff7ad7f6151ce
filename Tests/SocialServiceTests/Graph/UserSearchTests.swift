@testable import ServiceTestSupport
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// `SearchUsers`: identity's search with the caller's token, less the people social keeps from them.
@Suite struct UserSearchTests {
    @Test func searchLeavesOutBlocksEitherWayAndUsersReportedByThreePeople() async throws {
        try await SocialTestStack.with { stack in
            let users = try await stack.adults("anna", "sam_a", "sam_b", "sam_c", "sam_d", "sam_e")
            let anna = users[0]
            try await stack.blockByRPC(anna, users[1])
            try await stack.blockByRPC(users[2], anna)
            try await Self.report(users[3], by: 3, stack)
            try await Self.report(users[4], by: 2, stack)
            let found = try await stack.social.searchUsers(.init(usernamePrefix: "SAM"), options: anna.bearer)
            #expect(found.users.map(\.username) == ["sam_d", "sam_e"])
            #expect(found.users.map(\.userID) == [users[4].id, users[5].id])
            let blocked = try await stack.social.searchUsers(
                .init(usernamePrefix: "sam"), options: users[2].bearer)
            #expect(!blocked.users.map(\.username).contains("anna"))
            let bystander = try await stack.social.searchUsers(
                .init(usernamePrefix: "anna"), options: users[5].bearer)
            #expect(bystander.users.map(\.username) == ["anna"])
        }
    }

    @Test func aPageShortenedByTheFilterStillLeadsToTheNextOne() async throws {
        try await SocialTestStack.with { stack in
            let users = try await stack.adults("anna", "sam_a", "sam_b")
            try await stack.blockByRPC(users[0], users[1])
            let first = try await stack.social.searchUsers(
                .init(usernamePrefix: "sam", page: .init(pageSize: 1)), options: users[0].bearer)
            #expect(first.users.isEmpty)
            let token = try #require(first.page?.nextPageToken)
            let second = try await stack.social.searchUsers(
                .init(usernamePrefix: "sam", page: .init(pageSize: 1, pageToken: token)),
                options: users[0].bearer)
            #expect(second.users.map(\.username) == ["sam_b"])
        }
    }

    @Test func thePeopleFoundAreRememberedAsIdentityKnowsThem() async throws {
        try await SocialTestStack.with { stack in
            let anna = try await stack.register("anna", age: 30)
            let adult = try await stack.register("teen_fan", age: 30)
            let minor = try await stack.register("teen_maya", age: 15)
            let byPrefix = try await stack.social.searchUsers(
                .init(usernamePrefix: "teen"), options: anna.bearer)
            #expect(byPrefix.users.map(\.username) == ["teen_fan"])
            let exact = try await stack.social.searchUsers(
                .init(usernamePrefix: "Teen_Maya"), options: anna.bearer)
            #expect(exact.users.map(\.userID) == [minor.id])
            #expect(
                try await PeopleStore.find(id: adult.userID, on: stack.pool)
                    == Person(id: adult.userID, username: "teen_fan", minor: false))
            #expect(
                try await PeopleStore.find(id: minor.userID, on: stack.pool)
                    == Person(id: minor.userID, username: "teen_maya", minor: true))
        }
    }

    @Test func aMalformedPrefixSizeOrTokenIsTheCallersFieldNotAnInternalError() async throws {
        try await SocialTestStack.with { stack in
            let anna = try await stack.register("anna", age: 30)
            let requests: [(Kindred_Social_V1_SearchUsersRequest, [String])] = [
                (.init(usernamePrefix: ""), ["username_prefix"]),
                (.init(usernamePrefix: "no-hyphens"), ["username_prefix"]),
                (.init(usernamePrefix: String(repeating: "a", count: 31)), ["username_prefix"]),
                (.init(usernamePrefix: "a", page: .init(pageSize: -1)), ["page.page_size"]),
                (.init(usernamePrefix: "a", page: .init(pageToken: "garbage!")), ["page.page_token"]),
            ]
            for (request, fields) in requests {
                let refusal = await rpcError {
                    try await stack.social.searchUsers(request, options: anna.bearer)
                }
                #expect(refusal?.code == .invalidArgument, "\(request.usernamePrefix)")
                #expect(refusal?.badFields == fields)
            }
            let service = await rpcError {
                try await stack.social.searchUsers(
                    .init(usernamePrefix: "an"), options: try await stack.serviceBearer())
            }
            #expect(service?.reason == "ACCOUNT_REQUIRED")
        }
    }

    /// Records that `count` different people reported `user`, as the reports part keeps the tally.
    static func report(_ user: TestUser, by count: Int, _ stack: SocialTestStack) async throws {
        try await stack.pool.query(
            "INSERT INTO social.report_tallies (content_kind, content_id, reporters) VALUES (1, \(user.id)::uuid, \(count))"
        )
    }
}
