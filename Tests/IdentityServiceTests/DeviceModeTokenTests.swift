import Foundation
@testable import IdentityService
import KindredAuth
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredTestSupport
import Testing

/// `IssueDeviceModeTokens`: child mode reads only, for as long as its chain refreshes; parent mode is full for
/// 30 minutes after a proof; only a service allowed `device_modes` may ask.
@Suite("IssueDeviceModeTokens: child and parent mode")
struct DeviceModeTokenTests {
    typealias Request = Kindred_Identity_V1_IssueDeviceModeTokensRequest

    /// Sign-in on a clock the test moves, with `family` allowed device modes and `social` not.
    struct Fixture {
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

        func issue(_ userID: String, _ mode: Kindred_Identity_V1_DeviceMode, password: String = "") async throws
            -> IssuedTokens
        {
            try await credentials.deviceModeTokens(
                Request(userID: userID, mode: mode, password: password), caller: TestCallers.service)
        }

        var now: Int64 { Int64(clock.now.timeIntervalSince1970) }
    }

    @Test func childModeTokensReadOnlyAndOtherwiseSayWhatASignInsTokensSay() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await Fixture(pool)
            let id = try await fixture.signIn.account("teen", band: "13-15")
            let signedIn = try await fixture.credentials.passwordGrant(
                identifier: "teen", password: SignInFixture.password)
            let child = try await fixture.issue(id, .child)
            let (normal, readOnly) = (
                try await fixture.claims(of: signedIn.accessToken), try await fixture.claims(of: child.accessToken)
            )
            #expect(readOnly.scope == .childReadOnly)
            #expect(readOnly.userID == normal.userID && readOnly.role == normal.role)
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
            #expect(parent.response.sessionEndsAt?.seconds == start + 1_800)
            #expect(try await fixture.claims(of: parent.accessToken).scope == .full)
            #expect(parent.expiresIn == 900)

            fixture.clock.advance(seconds: 20 * 60)
            let late = try await fixture.credentials.refreshGrant(try #require(parent.refreshToken))
            #expect(late.expiresIn == 600, "cut to the session's end")
            #expect(try await fixture.claims(of: late.accessToken).expiresAt == start + 1_800)
            #expect(late.response.sessionEndsAt?.seconds == start + 1_800)

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
            let locked = await rpcError { try await fixture.issue(id, .parent, password: SignInFixture.password) }
            #expect(locked?.code == .resourceExhausted)
            #expect(locked?.reason == "SIGN_IN_LOCKED")
            #expect(locked?.retryDelay != nil)
            let signIn = await rpcError {
                try await fixture.credentials.passwordGrant(identifier: "dad", password: SignInFixture.password)
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

    static let refusedCallers: [(String, Caller)] = [
        ("a user", TestCallers.caller("0192f5e0-7c1a-7b3e-8f00-0000000000c1")),
        ("an admin", TestCallers.admin),
        ("a service not allowed device_modes", TestCallers.caller("social", role: .service)),
        ("an unknown service", TestCallers.caller("gamification", role: .service)),
        ("a user whose id is a permitted client's", TestCallers.caller("family", role: .user)),
    ]

    @Test(arguments: refusedCallers)
    func onlyAServiceAllowedDeviceModesIsAnswered(who: String, caller: Caller) async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await Fixture(pool)
            let id = try await fixture.signIn.account("dad")
            for mode in [Kindred_Identity_V1_DeviceMode.child, .parent] {
                let refused = await rpcError {
                    try await fixture.credentials.deviceModeTokens(Request(userID: id, mode: mode), caller: caller)
                }
                #expect(refused?.code == .permissionDenied, "\(who)")
                #expect(refused?.reason == "DEVICE_MODES_NOT_ALLOWED", "\(who)")
            }
        }
    }

    @Test(arguments: [
        (Request(userID: "nobody", mode: .unspecified), ["user_id", "mode"]),
        (Request(userID: "", mode: .unrecognized(7)), ["user_id", "mode"]),
        (Request(userID: "0192f5e0-7c1a-7b3e-8f00-0000000000c1", mode: .child, password: "x1"), ["password"]),
        (
            Request(
                userID: "0192f5e0-7c1a-7b3e-8f00-0000000000c1", mode: .parent,
                password: String(repeating: "x", count: 1_025)), ["password"]
        ),
    ])
    func aMalformedRequestNamesEveryBadField(request: Request, fields: [String]) async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await Fixture(pool)
            let refused = await rpcError {
                try await fixture.credentials.deviceModeTokens(request, caller: TestCallers.service)
            }
            #expect(refused?.code == .invalidArgument)
            #expect(refused?.badFields == fields)
        }
    }

    @Test func anUnknownAccountIsNotFound() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await Fixture(pool)
            let refused = await rpcError {
                try await fixture.issue("0192f5e0-7c1a-7b3e-8f00-0000000000c1", .parent, password: "guess 123")
            }
            #expect(refused?.code == .notFound)
            #expect(refused?.reason == "ACCOUNT_NOT_FOUND")
        }
    }
}
