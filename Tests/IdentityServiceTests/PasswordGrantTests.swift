@testable import IdentityService
import KindredAuth
import KindredHandlers
import KindredRPC
import KindredTestSupport
import Testing

@Suite("Token: the password grant")
struct PasswordGrantTests {
    @Test(arguments: ["mia_r", "MIA_R", "mia_r@example.com", "Mia_R@Example.COM", "  mia_r "])
    func aVerifiedAccountSignsInByUsernameOrEmailIgnoringCase(identifier: String) async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            let id = try await fixture.account("mia_r")
            let issued = try await fixture.credentials.passwordGrant(
                identifier: identifier, password: SignInFixture.password)
            #expect(try await fixture.claims(of: issued.accessToken).accountUserID?.description == id)
            #expect(issued.refreshToken != nil)
        }
    }

    /// `pc` is the account's `parental_controls`, not derived from its band: family may turn a minor's off.
    @Test(arguments: [("18+", false), ("16-17", true), ("13-15", true), ("16-17", false), ("13-15", false)])
    func theAccessTokenCarriesTheAccountAsItIsNow(band: String, parentalControls: Bool) async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            let id = try await fixture.account("teen", band: band, parentalControls: parentalControls)
            let issued = try await fixture.credentials.passwordGrant(
                identifier: "teen", password: SignInFixture.password)
            let caller = try await fixture.claims(of: issued.accessToken)
            #expect(caller.accountUserID?.description == id)
            #expect(caller.role == .user)
            #expect(caller.ageBand.rawValue == band)
            #expect(caller.parentalControls == parentalControls)
            #expect(caller.scope == .full)
            #expect(issued.expiresIn == 900)
            let now = TokenClock.system.now
            #expect((now + 895...now + 900).contains(caller.expiresAt))
        }
    }

    @Test func anAdminAccountGetsTheAdminRole() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("root", role: "admin")
            let issued = try await fixture.credentials.passwordGrant(
                identifier: "root", password: SignInFixture.password)
            #expect(try await fixture.claims(of: issued.accessToken).role == .admin)
        }
    }

    @Test func aWrongPasswordAndAnUnknownAccountGetTheSameAnswer() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("mia_r")
            let wrong = await rpcError {
                try await fixture.credentials.passwordGrant(identifier: "mia_r", password: "guess 123")
            }
            let unknown = await rpcError {
                try await fixture.credentials.passwordGrant(identifier: "nobody", password: "guess 123")
            }
            #expect(wrong?.code == .unauthenticated)
            #expect(wrong?.reason == "INVALID_CREDENTIALS")
            #expect(wrong == unknown)
        }
    }

    @Test func anUnverifiedEmailIsToldOnlyToWhoeverHasThePassword() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            try await fixture.account("new_user", verified: false)
            await #expect(throws: IdentityError.invalidCredentials) {
                try await fixture.credentials.passwordGrant(identifier: "new_user", password: "guess 123")
            }
            let refusal = await rpcError {
                try await fixture.credentials.passwordGrant(
                    identifier: "new_user", password: SignInFixture.password)
            }
            #expect(refusal?.code == .failedPrecondition)
            #expect(refusal?.reason == "EMAIL_NOT_VERIFIED")
            let chains = try await fixture.sql("SELECT count(*) FROM identity.refresh_chains")
            #expect(try chains[0].decode(Int.self, column: 0) == 0)
        }
    }

    @Test func aPasswordHashedAtAnOlderCostIsRehashedAtSignIn() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            let older = try await PasswordHasher(
                cost: PasswordHasher.Cost(iterations: 1, memoryKiB: 16), concurrency: 1
            )
            .hash(SignInFixture.password)
            let id = try await fixture.account("mia_r", passwordHash: older)
            _ = try await fixture.credentials.passwordGrant(
                identifier: "mia_r", password: SignInFixture.password)
            let stored = try await fixture.sql(
                "SELECT password_hash FROM identity.accounts WHERE id = \(id)::uuid")
            let hash = try stored[0].decode(String.self, column: 0)
            #expect(hash != older)
            #expect(hash.contains("m=8,t=1"))
            _ = try await fixture.credentials.passwordGrant(
                identifier: "mia_r", password: SignInFixture.password)
        }
    }

    @Test func anAgeBandChangeShowsInTheNextRefreshedToken() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await SignInFixture(pool)
            let id = try await fixture.account("teen", band: "16-17")
            let first = try await fixture.credentials.passwordGrant(
                identifier: "teen", password: SignInFixture.password)
            #expect(try await fixture.claims(of: first.accessToken).ageBand == .sixteenToSeventeen)
            _ = try await fixture.sql(
                "UPDATE identity.accounts SET age_band = '18+', parental_controls = false WHERE id = \(id)::uuid"
            )
            let refreshed = try await fixture.credentials.refreshGrant(try #require(first.refreshToken))
            let caller = try await fixture.claims(of: refreshed.accessToken)
            #expect(caller.ageBand == .adult)
            #expect(caller.parentalControls == false)
        }
    }
}
