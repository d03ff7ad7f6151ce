@testable import IdentityService
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
import Testing

/// Parent mode proven with a guardian PIN names the PIN's minor in every token of its chain (`guardian_pin`),
/// so that the minor's own device in parent mode can act as their guardian; no other token carries it.
extension DeviceModeTokenTests {
    @Test func aGuardianPinsParentModeNamesItsMinorInEveryTokenOfTheChain() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await Fixture(pool)
            let teen = try await fixture.signIn.account("teen", band: "13-15")
            let parent = try await fixture.credentials.deviceModeTokens(
                .init(userID: teen, mode: .parent, guardianPinMinorUserID: teen), caller: TestCallers.service)
            #expect(try await fixture.claims(of: parent.accessToken).guardianPinMinorID?.description == teen)
            fixture.clock.advance(seconds: 10 * 60)
            let refreshed = try await fixture.credentials.refreshGrant(try #require(parent.refreshToken))
            #expect(
                try await fixture.claims(of: refreshed.accessToken).guardianPinMinorID?.description == teen)
        }
    }

    @Test func noOtherTokenNamesAMinor() async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await Fixture(pool)
            let teen = try await fixture.signIn.account("teen", band: "13-15")
            let signedIn = try await fixture.credentials.passwordGrant(
                identifier: "teen", password: SignInFixture.password)
            let tokens = [
                signedIn.accessToken,
                try await fixture.issue(teen, .child).accessToken,
                try await fixture.issue(teen, .parent, password: SignInFixture.password).accessToken,
                try await fixture.issue(teen, .parent).accessToken,
            ]
            for token in tokens {
                #expect(try await fixture.claims(of: token).guardianPinMinorID == nil)
            }
        }
    }

    @Test(arguments: [
        (Kindred_Identity_V1_DeviceMode.child, "", "0190a000-0000-7000-8000-000000000001"),
        (.parent, SignInFixture.password, "0190a000-0000-7000-8000-000000000001"),
        (.parent, "", "not-an-id"),
    ])
    func aGuardianPinMinorOutsideAPinsParentModeIsRefused(
        mode: Kindred_Identity_V1_DeviceMode, password: String, minor: String
    ) async throws {
        try await IdentityTestDatabase.withDatabase { pool in
            let fixture = try await Fixture(pool)
            let teen = try await fixture.signIn.account("teen", band: "13-15")
            let refused = await rpcError {
                try await fixture.credentials.deviceModeTokens(
                    .init(userID: teen, mode: mode, password: password, guardianPinMinorUserID: minor),
                    caller: TestCallers.service)
            }
            #expect(refused?.code == .invalidArgument)
            #expect(refused?.badFields == ["guardian_pin_minor_user_id"])
        }
    }
}
