@testable import IdentityService
import KindredAuth
import KindredHandlers
import KindredPostgres
import KindredRPC
import KindredTestSupport
import Testing

@Suite("Token: refresh tokens, RevokeToken, SignOutEverywhere")
struct RefreshTokenTests {
    /// An account signed in once: the fixture, its id and the first refresh token.
    static func signedIn(_ pool: PostgresPool) async throws -> (SignInFixture, UserID, OpaqueToken) {
        let fixture = try await SignInFixture(pool)
        let id = try await fixture.account("mia_r")
        let issued = try await fixture.credentials.passwordGrant(
            identifier: "mia_r", password: SignInFixture.password)
        return (fixture, try #require(UserID(id)), try #require(issued.refreshToken))
    }

    static func refused(_ fixture: SignInFixture, _ token: OpaqueToken) async -> Bool {
        await rpcError { try await fixture.credentials.refreshGrant(token) }?.reason
            == "REFRESH_TOKEN_INVALID"
    }

    @Test func aRefreshTokenIsRotatedOnUse() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let (fixture, id, first) = try await Self.signedIn(pool)
            let second = try await fixture.credentials.refreshGrant(first)
            let next = try #require(second.refreshToken)
            #expect(next != first)
            #expect(try await fixture.claims(of: second.accessToken).accountUserID == id)
            let third = try await fixture.credentials.refreshGrant(next)
            #expect(third.refreshToken != nil)
        }
    }

    @Test func reusingARotatedTokenRevokesTheWholeChain() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let (fixture, _, first) = try await Self.signedIn(pool)
            let second = try #require(try await fixture.credentials.refreshGrant(first).refreshToken)
            #expect(await Self.refused(fixture, first))
            #expect(
                await Self.refused(fixture, second),
                "the thief's or the owner's newer token dies with the chain")
        }
    }

    @Test func anotherSignInIsAChainOfItsOwn() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let (fixture, _, first) = try await Self.signedIn(pool)
            let other = try await fixture.credentials.passwordGrant(
                identifier: "mia_r", password: SignInFixture.password)
            _ = try await fixture.credentials.refreshGrant(first)
            #expect(await Self.refused(fixture, first))
            #expect(
                try await fixture.credentials.refreshGrant(try #require(other.refreshToken)).refreshToken
                    != nil)
        }
    }

    @Test func concurrentUsesOfOneTokenLeaveNoLiveChain() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let (fixture, _, first) = try await Self.signedIn(pool)
            let results = await withTaskGroup(of: OpaqueToken?.self) { group in
                for _ in 0..<2 {
                    group.addTask { try? await fixture.credentials.refreshGrant(first).refreshToken }
                }
                return await group.reduce(into: [OpaqueToken?]()) { $0.append($1) }
            }
            for case let token? in results { #expect(await Self.refused(fixture, token)) }
        }
    }

    @Test func concurrentRefreshesOfOneTokenHaveExactlyOneWinner() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let (fixture, id, first) = try await Self.signedIn(pool)
            let outcomes = await withTaskGroup(of: (IssuedTokens?, String?).self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        var issued: IssuedTokens?
                        let refused = await rpcError {
                            issued = try await fixture.credentials.refreshGrant(first)
                        }
                        return (issued, refused?.reason)
                    }
                }
                return await group.reduce(into: [(IssuedTokens?, String?)]()) { $0.append($1) }
            }
            let winners = outcomes.compactMap(\.0)
            #expect(winners.count == 1)
            #expect(outcomes.compactMap(\.1) == Array(repeating: "REFRESH_TOKEN_INVALID", count: 5))
            let winner = try #require(winners.first)
            #expect(
                try await fixture.claims(of: winner.accessToken).accountUserID?.description == id.description)
            #expect(
                await Self.refused(fixture, try #require(winner.refreshToken)),
                "the losers presented a rotated token: reuse, which revokes the chain")
            let tokens = try await fixture.sql("SELECT count(*) FROM identity.refresh_tokens")
            #expect(try tokens[0].decode(Int.self, column: 0) == 2, "one successor, not one per caller")
        }
    }

    @Test func aRefreshExtendsItsChainAndItsSuccessorLivesThirtyDays() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let (fixture, _, first) = try await Self.signedIn(pool)
            _ = try await fixture.sql(
                "UPDATE identity.refresh_chains SET expires_at = now() + interval '1 day'")
            let next = try #require(try await fixture.credentials.refreshGrant(first).refreshToken)
            let rows = try await fixture.sql(
                """
                SELECT c.expires_at > now() + interval '29 days', t.expires_at > now() + interval '29 days',
                    t.rotated_at IS NULL
                FROM identity.refresh_tokens t JOIN identity.refresh_chains c ON c.id = t.chain_id
                WHERE t.token_hash = \(next.storageHash)
                """)
            #expect(try rows[0].decode((Bool, Bool, Bool).self) == (true, true, true))
        }
    }

    @Test func anExpiredTokenIsRefused() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let (fixture, _, first) = try await Self.signedIn(pool)
            _ = try await fixture.sql(
                "UPDATE identity.refresh_tokens SET expires_at = now() - interval '1 second'")
            #expect(await Self.refused(fixture, first))
        }
    }

    @Test func unknownTokensAreRefused() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let (fixture, _, _) = try await Self.signedIn(pool)
            #expect(await Self.refused(fixture, OpaqueToken.generate()))
            #expect(await Self.refused(fixture, OpaqueToken(text: "")))
        }
    }

    @Test func onlyTheHashOfATokenIsStored() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let (fixture, _, first) = try await Self.signedIn(pool)
            let rows = try await fixture.sql("SELECT token_hash FROM identity.refresh_tokens")
            #expect(try rows.map { try $0.decode([UInt8].self, column: 0) } == [first.storageHash])
        }
    }

    @Test func revokingATokenEndsItsChainAndAnswersTheSameForAnyToken() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let (fixture, _, first) = try await Self.signedIn(pool)
            let second = try #require(try await fixture.credentials.refreshGrant(first).refreshToken)
            try await fixture.credentials.refreshTokens.revokeChain(of: first)
            #expect(await Self.refused(fixture, second))
            try await fixture.credentials.refreshTokens.revokeChain(of: OpaqueToken.generate())
            try await fixture.credentials.refreshTokens.revokeChain(of: second)
        }
    }

    @Test func signingOutEverywhereRevokesEveryChainOfTheCallerOnly() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let (fixture, id, first) = try await Self.signedIn(pool)
            let second = try await fixture.credentials.passwordGrant(
                identifier: "mia_r", password: SignInFixture.password)
            try await fixture.account("leo")
            let others = try await fixture.credentials.passwordGrant(
                identifier: "leo", password: SignInFixture.password)
            #expect(try await fixture.credentials.signOutEverywhere(id) == 2)
            #expect(await Self.refused(fixture, first))
            #expect(await Self.refused(fixture, try #require(second.refreshToken)))
            #expect(
                try await fixture.credentials.refreshGrant(try #require(others.refreshToken)).refreshToken
                    != nil)
            #expect(try await fixture.credentials.signOutEverywhere(id) == 0)
        }
    }

    @Test func deletingTheAccountDeletesItsTokens() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let (fixture, id, first) = try await Self.signedIn(pool)
            _ = try await fixture.sql("DELETE FROM identity.accounts WHERE id = \(id)::uuid")
            #expect(await Self.refused(fixture, first))
            let rows = try await fixture.sql("SELECT count(*) FROM identity.refresh_tokens")
            #expect(try rows[0].decode(Int.self, column: 0) == 0)
        }
    }

    @Test func theSweepDeletesExpiredTokensAndChains() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let (fixture, _, first) = try await Self.signedIn(pool)
            let second = try #require(try await fixture.credentials.refreshGrant(first).refreshToken)
            _ = try await fixture.sql(
                """
                UPDATE identity.refresh_tokens SET expires_at = now() - interval '1 second'
                WHERE token_hash = \(first.storageHash)
                """)
            #expect(try await fixture.credentials.refreshTokens.sweep() == 1)
            #expect(try await fixture.credentials.refreshGrant(second).refreshToken != nil)
            _ = try await fixture.sql(
                "UPDATE identity.refresh_chains SET expires_at = now() - interval '1 second'")
            _ = try await fixture.credentials.refreshTokens.sweep()
            let rows = try await fixture.sql("SELECT count(*) FROM identity.refresh_tokens")
            #expect(try rows[0].decode(Int.self, column: 0) == 0)
        }
    }

    @Test func aSweepOfMoreExpiredTokensThanABatchDeletesThemAll() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let (fixture, _, first) = try await Self.signedIn(pool)
            let second = try #require(try await fixture.credentials.refreshGrant(first).refreshToken)
            _ = try #require(try await fixture.credentials.refreshGrant(second).refreshToken)
            _ = try await fixture.sql(
                "UPDATE identity.refresh_tokens SET expires_at = now() - interval '1 second'")

            #expect(try await fixture.credentials.refreshTokens.sweep(batchesOf: 2) == 3)
            let rows = try await fixture.sql("SELECT count(*) FROM identity.refresh_tokens")
            #expect(try rows[0].decode(Int.self, column: 0) == 0)
        }
    }
}
