import Foundation
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

/// A day holds at most `UsageDayCounts.maximumStretches` separate stretches of use: a batch that would take it
/// past them is refused whole, and one that adds none still goes.
@Suite struct UsageDayBoundTests {
    @Test func aDayAtItsBoundRefusesAnotherStretchWholeAndStillTakesUseOverItsStretches() async throws {
        try await GamificationTestStack.with { stack in
            let dana = try await stack.register("dana")
            // One-second sessions a second apart: each its own stretch.
            let perBatch = 500
            for batch in 0..<(UsageDayCounts.maximumStretches / perBatch) {
                let sessions = (0..<perBatch).map { index in
                    Self.session("s\(batch * perBatch + index)", second: 2 * (batch * perBatch + index))
                }
                #expect(try await stack.upload(sessions, as: dana).stored == Int32(perBatch))
            }
            let rows = try await stack.usageRows(of: dana)
            let counted = try await stack.dailySeconds(of: dana, app: "chess")
            #expect(counted == ["2026-05-03": UsageDayCounts.maximumStretches])

            let past = 2 * UsageDayCounts.maximumStretches
            let refused = await rpcError {
                try await stack.upload(
                    [Self.session("over", second: past), Self.session("also", second: past + 2)], as: dana)
            }
            #expect(refused?.code == .resourceExhausted && refused?.reason == "USAGE_DAY_FULL")
            #expect(
                refused?.message == "This day already holds as much separate app use as can be recorded.")
            #expect(try await stack.usageRows(of: dana) == rows)
            #expect(try await stack.dailySeconds(of: dana, app: "chess") == counted)

            // Over a stretch already counted: no stretch more, so it is stored (and counts no time twice).
            let again = try await stack.upload([Self.session("again", second: 0)], as: dana)
            #expect(again.stored == 1)
            #expect(try await stack.dailySeconds(of: dana, app: "chess") == counted)
            // Another day has its own bound.
            let nextDay = try await stack.upload(
                [usageSession("next", "chess", from: "2026-05-04T09:00:00Z", minutes: 10)], as: dana)
            #expect(nextDay.stored == 1)
        }
    }

    /// A one-second session of chess on 2026-05-03, starting `second` seconds after midnight UTC.
    static func session(_ id: String, second: Int) -> Kindred_Gamification_V1_UsageSession {
        let start = TestClock.parse("2026-05-03T00:00:00Z").addingTimeInterval(Double(second))
        return Kindred_Gamification_V1_UsageSession(
            clientSessionID: id, appID: "chess", startTime: start, endTime: start.addingTimeInterval(1),
            updatedAt: start.addingTimeInterval(1))
    }
}
