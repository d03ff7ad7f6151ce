@testable import IdentityService
import KindredAuth
import KindredMessages
import KindredRPC
import KindredTestSupport
import Testing

/// `IssueDeviceModeTokens` refused: anyone but a service allowed `device_modes`, malformed requests, and an
/// account nobody has.
@Suite("IssueDeviceModeTokens: who may ask, and what")
struct DeviceModeRequestTests {
    typealias Request = Kindred_Identity_V1_IssueDeviceModeTokensRequest
    typealias Fixture = DeviceModeFixture

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
                    try await fixture.credentials.deviceModeTokens(
                        Request(userID: id, mode: mode), caller: caller)
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
                try await fixture.issue(
                    "0192f5e0-7c1a-7b3e-8f00-0000000000c1", .parent, password: "guess 123")
            }
            #expect(refused?.code == .notFound)
            #expect(refused?.reason == "ACCOUNT_NOT_FOUND")
        }
    }
}
