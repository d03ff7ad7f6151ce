import Foundation
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// A challenge takes every app id usage tracking takes, and refuses what an upload refuses: one rule for
/// both (`AppID`), so a reverse-DNS id in any case counts on either side.
@Suite struct ChallengeAppIDTests {
    static let longest = String(repeating: "a", count: 100)

    @Test(arguments: ["com.apple.MobileSMS", "YouTube", longest, "com.burbn.instagram:Reels"])
    func aChallengeTakesAnAppIDAnUploadTakes(app: String) async throws {
        try await GamificationTestStack.with { stack in
            stack.clock.set("2026-06-15T12:00:00Z")
            let anna = try await stack.register("anna")
            _ = try await stack.upload(
                [usageSession("s1", app, from: "2026-06-15T10:00:00Z", minutes: 5)], as: anna)
            let challenge = try await stack.createChallenge(anna, app: app)
            #expect(challenge.appID == app)
        }
    }

    @Test(arguments: ["", longest + "a", "You Tube", "tab\tapp"])
    func aChallengeRefusesWhatAnUploadRefuses(app: String) async throws {
        try await GamificationTestStack.with { stack in
            stack.clock.set("2026-06-15T12:00:00Z")
            let anna = try await stack.register("anna")
            let upload = await rpcError {
                _ = try await stack.upload(
                    [usageSession("s1", app, from: "2026-06-15T10:00:00Z", minutes: 5)], as: anna)
            }
            let challenge = await rpcError { _ = try await stack.createChallenge(anna, app: app) }
            #expect(upload?.badFields == ["sessions[0].app_id"])
            #expect(challenge?.code == .invalidArgument && challenge?.badFields == ["app_id"])
        }
    }
}
