@testable import IdentityService
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredTestSupport
import Testing

@Suite("SearchUsers")
struct SearchUsersTests {
    static func search(
        _ test: TestAccounts, _ prefix: String, size: Int32 = 0, token: String = ""
    ) async throws -> (names: [String], next: String) {
        let found = try await test.accounts.searchUsers(
            Kindred_Identity_V1_SearchUsersRequest(
                usernamePrefix: prefix, page: Kindred_Common_V1_PageRequest(pageSize: size, pageToken: token))
        )
        return (found.users.map(\.username), found.nextPageToken)
    }

    @Test func adultsAreFoundByPrefixIgnoringCaseInUsernameOrder() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            for name in ["Mia_R", "mila", "miles", "max", "MIA_Z"] { try await test.registerVerified(name) }
            #expect(try await Self.search(test, "MI").names == ["Mia_R", "MIA_Z", "mila", "miles"])
            #expect(try await Self.search(test, "mia_").names == ["Mia_R", "MIA_Z"])
            #expect(try await Self.search(test, "mz").names.isEmpty)
        }
    }

    @Test func minorsAreFoundOnlyByTheirExactUsername() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            try await test.registerVerified("teen_sam", born: (2011, 5, 5))
            try await test.registerVerified("teen_samuel")
            #expect(try await Self.search(test, "teen").names == ["teen_samuel"])
            #expect(try await Self.search(test, "teen_sa").names == ["teen_samuel"])
            #expect(try await Self.search(test, "TEEN_SAM").names == ["teen_sam", "teen_samuel"])
        }
    }

    @Test func accountsNeverVerifiedAreNotFound() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            try await test.register("ghost")
            #expect(try await Self.search(test, "ghost").names.isEmpty)
        }
    }

    @Test func theUnderscoreIsALiteralNotAWildcard() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            for name in ["a_b", "axb"] { try await test.registerVerified(name) }
            #expect(try await Self.search(test, "a_").names == ["a_b"])
        }
    }

    @Test func pagesFollowTheirTokensToTheEnd() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let names = (1...7).map { "user_\($0)" }
            for name in names.shuffled() { try await test.registerVerified(name) }
            var seen: [String] = []
            var token = ""
            var pages = 0
            repeat {
                let page = try await Self.search(test, "user", size: 3, token: token)
                seen += page.names
                token = page.next
                pages += 1
            } while !token.isEmpty
            #expect(seen == names)
            #expect(pages == 3)
        }
    }

    @Test func pageSizeDefaultsToFiftyAndIsCappedAtFiveHundred() async throws {
        let request = { (size: Int32) in
            try SearchPage(
                Kindred_Identity_V1_SearchUsersRequest(
                    usernamePrefix: "a", page: Kindred_Common_V1_PageRequest(pageSize: size)))
        }
        #expect(try request(0).size == 50)
        #expect(try request(7).size == 7)
        #expect(try request(501).size == 500)
        #expect(try SearchPage(Kindred_Identity_V1_SearchUsersRequest(usernamePrefix: "a")).size == 50)
    }

    @Test func badPrefixesSizesAndTokensAreNamed() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            let everything = await rpcError { try await Self.search(test, "", size: -1, token: "garbage!") }
            #expect(everything?.badFields == ["username_prefix", "page.page_size", "page.page_token"])
            try await test.registerVerified("user_1")
            try await test.registerVerified("user_2")
            let otherSearch = try await Self.search(test, "user", size: 1).next
            #expect(!otherSearch.isEmpty)
            #expect(
                await rpcError { try await Self.search(test, "us", token: otherSearch) }?.badFields
                    == ["page.page_token"])
            #expect(await rpcError { try await Self.search(test, "a-b") }?.badFields == ["username_prefix"])
        }
    }
}
