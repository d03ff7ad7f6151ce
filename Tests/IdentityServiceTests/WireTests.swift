@testable import IdentityService
import FoundationEssentials
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
import Testing

/// The account RPCs through a real server and client: what reaches an app, and who may call what.
@Suite struct WireTests {
    typealias Server = IdentityTestServer

    @Test func registrationRefusalsReachTheClientWithTheirDetails() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            try await Server.with(TestAccounts(pool)) { server in
                var bad = TestAccounts.request()
                (bad.username, bad.password) = ("x", "nodigits")
                let invalid = await rpcError { try await server.client.registerAccount(bad) }
                #expect(invalid?.code == .invalidArgument)
                #expect(invalid?.badFields == ["username", "password"])

                let young = await rpcError {
                    try await server.client.registerAccount(TestAccounts.request("kid", born: (2020, 1, 1)))
                }
                #expect(young?.code == .failedPrecondition)
                #expect(young?.reason == "AGE_BELOW_MINIMUM")
                #expect(young?.message == "You must be at least 13 years old to have a Kindred account.")
            }
        }
    }

    @Test func registerVerifyAndReadTheAccountOverTheWire() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            try await Server.with(TestAccounts(pool)) { server in
                let registered = try await server.client.registerAccount(
                    TestAccounts.request("teen", born: (2010, 3, 3)))
                let account = try #require(registered.account)
                #expect(account.ageBand == .ageBand1617 && account.parentalControls && !account.emailVerified)
                #expect(account.dateOfBirth == DateComponents(year: 2010, month: 3, day: 3))
                #expect(account.ageAssuranceMethod == .selfDeclared)

                let token = try await TestMailbox(pool).token(to: account.email)
                let verified = try await server.client.verifyEmail(
                    Kindred_Identity_V1_VerifyEmailRequest(token: token))
                #expect(verified.userID == account.userID)

                let bearer = Server.bearer(TestCallers.token(account.userID))
                let me = try await server.client.getMe(Kindred_Identity_V1_GetMeRequest(), options: bearer)
                #expect(me.account?.emailVerified == true)
                let range = try await server.client.getAgeRange(
                    Kindred_Identity_V1_GetAgeRangeRequest(), options: bearer)
                #expect(
                    range
                        == Kindred_Identity_V1_GetAgeRangeResponse(
                            ageBand: .ageBand1617, parentalControls: true))
                let seen = try await server.client.getAccount(
                    Kindred_Identity_V1_GetAccountRequest(userID: account.userID),
                    options: Server.bearer(TestCallers.token("0192f5e0-7c1a-7b3e-8f00-0000000000b0")))
                #expect(
                    seen.view
                        == .publicAccount(
                            Kindred_Identity_V1_PublicAccount(userID: account.userID, username: "teen")))
            }
        }
    }

    @Test func anOwnerNamingTheirIDInCapitalsSeesTheirWholeAccount() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            try await Server.with(test) { server in
                let mia = try await test.register("mia_r")
                let seen = try await server.client.getAccount(
                    Kindred_Identity_V1_GetAccountRequest(userID: mia.id.description.uppercased()),
                    options: Server.bearer(TestCallers.token(mia.id.description)))
                #expect(seen.view == .account(mia.proto))
            }
        }
    }

    @Test func anOperatorClientHasNoAccountToChangeOrDelete() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            try await Server.with(TestAccounts(pool)) { server in
                let ops = Server.bearer(TestCallers.token("ops-console", role: .admin))
                let deletion = await rpcError {
                    try await server.client.deleteAccount(
                        Kindred_Identity_V1_DeleteAccountRequest(password: "correct horse 1"), options: ops)
                }
                #expect(deletion?.code == .notFound && deletion?.reason == "ACCOUNT_NOT_FOUND")
                let signedOut = try await server.client.signOutEverywhere(
                    Kindred_Identity_V1_SignOutEverywhereRequest(), options: ops)
                #expect(signedOut.revokedRefreshTokens == 0)
            }
        }
    }

    @Test func resendVerificationAnswersTheSameForAnyAddress() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            try await Server.with(test) { server in
                let account = try await test.register("mia_r")
                test.clock.advance(seconds: 120)
                for email in [account.email, "nobody@example.com"] {
                    let answer = try await server.client.resendVerification(
                        Kindred_Identity_V1_ResendVerificationRequest(email: email))
                    #expect(answer == Kindred_Identity_V1_ResendVerificationResponse())
                }
                #expect(try await TestMailbox(pool).mail(to: account.email).count == 2)
            }
        }
    }

    @Test func protectedMethodsNeedATokenAndTheRightRole() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            try await Server.with(TestAccounts(pool)) { server in
                let user = Server.bearer(TestCallers.token("0192f5e0-7c1a-7b3e-8f00-0000000000b0"))
                let service = Server.bearer(TestCallers.token("family", role: .service))
                let anonymous = await rpcError {
                    try await server.client.getMe(Kindred_Identity_V1_GetMeRequest())
                }
                #expect(anonymous?.code == .unauthenticated)
                let report = await rpcError {
                    try await server.client.getComplianceReport(
                        Kindred_Identity_V1_GetComplianceReportRequest(), options: user)
                }
                #expect(report?.code == .permissionDenied)
                let change = await rpcError {
                    try await server.client.changeDateOfBirth(
                        Kindred_Identity_V1_ChangeDateOfBirthRequest(), options: service)
                }
                #expect(change?.code == .permissionDenied)
                let watch = await rpcError {
                    for try await _ in server.client.watchEvents(
                        Kindred_Identity_V1_WatchEventsRequest(), options: user)
                    {}
                }
                #expect(watch?.code == .permissionDenied)
            }
        }
    }

    @Test func aServiceWatchesTheEventsWithTheirCursors() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let test = TestAccounts(pool)
            try await Server.with(test) { server in
                let account = try await test.register("mia_r")
                let stream = server.client.watchEvents(
                    Kindred_Identity_V1_WatchEventsRequest(afterCursor: 0),
                    options: Server.bearer(TestCallers.token("family", role: .service)))
                var first: Kindred_Identity_V1_Event?
                for try await event in stream {
                    first = event
                    break
                }
                #expect(first?.cursor == 1)
                #expect(first?.type == "user.registered")
                #expect(
                    first?.payload
                        == .userRegistered(
                            Kindred_Identity_V1_UserRegistered(
                                userID: account.id.description, ageBand: .ageBand18Plus,
                                parentalControls: false)))
            }
        }
    }
}
