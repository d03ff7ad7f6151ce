@testable import IdentityService
import FoundationEssentials
import KindredAuth
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredTestSupport
import Testing

/// `IssueDeviceModeTokens`: child mode reads only, for as long as its chain refreshes; parent mode is full for
/// 30 minutes after a proof, which a password given counts toward the sign-in lockout.
@Suite("IssueDeviceModeTokens: child and parent mode")
struct DeviceModeTokenTests {
    typealias Fixture = DeviceModeFixture

    @Test func childModeTokensReadOnlyAndOtherwiseSayWhatASignInsTokensSay() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await Fixture(pool)
            let id = try await fixture.signIn.account("teen", band: "13-15")
            let signedIn = try await fixture.credentials.passwordGrant(
                identifier: "teen", password: SignInFixture.password)
            let child = try await fixture.issue(id, .child)
            let (normal, readOnly) = (
                try await fixture.claims(of: signedIn.accessToken),
                try await fixture.claims(of: child.accessToken)
            )
            #expect(readOnly.scope == .childReadOnly)
            #expect(readOnly.principal == normal.principal && readOnly.role == normal.role)
            #expect(readOnly.ageBand == .thirteenToFifteen && readOnly.parentalControls)
            #expect(child.expiresIn == 900)
            #expect(child.response.scope == "child_readonly" && child.response.sessionEndsAt == nil)
            #expect(signedIn.response.scope == "full")
        }
    }

    @Test func aChildModeChainRefreshesToChildModeTokensOnly() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await Fixture(pool)
            let id = try await fixture.signIn.account("teen", band: "16-17")
            var refresh = try #require(try await fixture.issue(id, .child).refreshToken)
            for _ in 0..<3 {
                fixture.clock.advance(seconds: 24 * 3_600)
                let refreshed = try await fixture.credentials.refreshGrant(refresh)
                #expect(try await fixture.claims(of: refreshed.accessToken).scope == .childReadOnly)
                #expect(refreshed.response.scope == "child_readonly")
                refresh = try #require(refreshed.refreshToken)
            }
        }
    }

    @Test func parentModeRefreshesForThirtyMinutesAndNoTokenOutlivesIt() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await Fixture(pool)
            let id = try await fixture.signIn.account("dad")
            let start = fixture.now
            let parent = try await fixture.issue(id, .parent, password: SignInFixture.password)
            #expect(parent.response.sessionEndsAt == Date(timeIntervalSince1970: Double(start + 1_800)))
            #expect(try await fixture.claims(of: parent.accessToken).scope == .full)
            #expect(parent.expiresIn == 900)

            fixture.clock.advance(seconds: 20 * 60)
            let late = try await fixture.credentials.refreshGrant(try #require(parent.refreshToken))
            #expect(late.expiresIn == 600, "cut to the session's end")
            #expect(try await fixture.claims(of: late.accessToken).expiresAt == start + 1_800)
            #expect(late.response.sessionEndsAt == Date(timeIntervalSince1970: Double(start + 1_800)))

            fixture.clock.advance(seconds: 9 * 60 + 59)
            let last = try await fixture.credentials.refreshGrant(try #require(late.refreshToken))
            #expect(last.expiresIn == 1)

            fixture.clock.advance(seconds: 1)
            let ended = await rpcError {
                try await fixture.credentials.refreshGrant(try #require(last.refreshToken))
            }
            #expect(ended?.code == .unauthenticated)
            #expect(ended?.reason == "DEVICE_MODE_SESSION_ENDED")
        }
    }

    @Test func parentModeWithoutAPasswordTakesTheServicesWordForTheProof() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await Fixture(pool)
            let id = try await fixture.signIn.account("dad")
            let parent = try await fixture.issue(id, .parent)
            #expect(try await fixture.claims(of: parent.accessToken).scope == .full)
            #expect(parent.mode.sessionEndsAt != nil)
        }
    }

    @Test func aWrongParentModePasswordIsRefusedAndCountsTowardTheSignInLockout() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await Fixture(pool)
            let id = try await fixture.signIn.account("dad")
            for _ in 0..<SignInLockout.freeFailures {
                let wrong = await rpcError { try await fixture.issue(id, .parent, password: "guess 123") }
                #expect(wrong?.code == .permissionDenied)
                #expect(wrong?.reason == "PASSWORD_INCORRECT")
            }
            let locked = await rpcError {
                try await fixture.issue(id, .parent, password: SignInFixture.password)
            }
            #expect(locked?.code == .resourceExhausted)
            #expect(locked?.reason == "SIGN_IN_LOCKED")
            #expect(locked?.retryDelay != nil)
            let signIn = await rpcError {
                try await fixture.credentials.passwordGrant(
                    identifier: "dad", password: SignInFixture.password)
            }
            #expect(signIn?.reason == "SIGN_IN_LOCKED", "one counter with sign-in by username")
            let chains = try await fixture.signIn.sql("SELECT count(*) FROM identity.refresh_chains")
            #expect(try chains[0].decode(Int.self, column: 0) == 0)
        }
    }

    @Test func aRightParentModePasswordClearsTheCount() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await Fixture(pool)
            let id = try await fixture.signIn.account("dad")
            for _ in 0..<SignInLockout.freeFailures - 1 {
                _ = await rpcError { try await fixture.issue(id, .parent, password: "guess 123") }
            }
            _ = try await fixture.issue(id, .parent, password: SignInFixture.password)
            let wrong = await rpcError { try await fixture.issue(id, .parent, password: "guess 123") }
            #expect(wrong?.reason == "PASSWORD_INCORRECT")
        }
    }

    @Test func theSweepDeletesChainsWhoseParentModeHasEnded() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await Fixture(pool)
            let id = try await fixture.signIn.account("dad")
            let parent = try #require(try await fixture.issue(id, .parent).refreshToken)
            let child = try #require(try await fixture.issue(id, .child).refreshToken)
            _ = try await fixture.signIn.sql(
                """
                UPDATE identity.refresh_chains SET session_ends_at = now() - interval '1 second'
                WHERE session_ends_at IS NOT NULL
                """)
            _ = try await fixture.credentials.refreshTokens.sweep()
            let chains = try await fixture.signIn.sql("SELECT scope FROM identity.refresh_chains")
            #expect(try chains.map { try $0.decode(String.self, column: 0) } == ["child_readonly"])
            let gone = await rpcError { try await fixture.credentials.refreshGrant(parent) }
            #expect(gone?.reason == "REFRESH_TOKEN_INVALID")
            #expect(try await fixture.credentials.refreshGrant(child).refreshToken != nil)
        }
    }
}

/// Sign-in on a clock the test moves, with `family` allowed device modes and `social` not.
struct DeviceModeFixture {
    let signIn: SignInFixture
    let clock: TestClock
    var credentials: Credentials { signIn.credentials }

    init(_ pool: PostgresPool) async throws {
        let hasher = PasswordHasher(cost: .testsOnly, concurrency: 1)
        let clients = try ClientRegistry(
            parsing: """
                family   service   \(try await hasher.hash("unused"))   device_modes
                social   service   \(try await hasher.hash("unused"))
                """)
        clock = TestClock.startingNow()
        signIn = try await SignInFixture(pool, clients: clients, clock: clock.wallClock)
    }

    /// The claims of `token`, judged at the test's clock.
    func claims(of token: String) async throws -> Caller {
        try TokenVerifier(
            keys: try await credentials.signingKeys.verificationKeys(), clock: clock.tokenClock
        ).verify(token)
    }

    /// Tokens of `mode` for `userID`, asked for by family (allowed device modes).
    func issue(_ userID: String, _ mode: Kindred_Identity_V1_DeviceMode, password: String = "")
        async throws -> IssuedTokens
    {
        try await credentials.deviceModeTokens(
            .init(userID: userID, mode: mode, password: password), caller: TestCallers.service)
    }

    /// The test clock, in the whole seconds of a token.
    var now: Int64 { Int64(clock.now.timeIntervalSince1970) }
}
