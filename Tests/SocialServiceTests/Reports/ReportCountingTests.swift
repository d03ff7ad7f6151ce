@testable import ServiceTestSupport
@testable import SocialService
import Testing

/// Each person counts once per content, however often or however fast they report it, and the third
/// different person filters the content for everyone.
@Suite struct ReportCountingTests {
    @Test func onePersonReportingThreeTimesCountsOnceAndFiltersNothing() async throws {
        try await SocialTestStack.with { stack in
            let test = ReportTest(stack)
            let (pushy, target) = (ReportTest.someone(), try await test.met())
            for reason in ["rude", "still rude", "REALLY rude"] {
                #expect(
                    try await test.file(.user, target, by: pushy, reason: reason)
                        == ReportOutcome(reporters: 1))
            }
            #expect(try await test.tally(.user, target) == 1)
            let kept = try await stack.pool.query("SELECT reason FROM social.reports").decode(String.self)
            #expect(kept == ["rude"])
        }
    }

    @Test func theThirdDifferentReporterFiltersTheContentForEveryone() async throws {
        try await SocialTestStack.with { stack in
            let test = ReportTest(stack)
            let event = try await test.event(by: try await test.met())
            let (ann, ben, cat) = (ReportTest.someone(), ReportTest.someone(), ReportTest.someone())
            let first = try await test.file(.event, event, by: ann)
            let second = try await test.file(.event, event, by: ben)
            #expect(
                (first.reporters, first.filtered, second.reporters, second.filtered) == (1, false, 2, false))
            let third = try await test.file(.event, event, by: cat)
            #expect(third.reporters == ReportTally.filterThreshold && third.filtered)
            #expect(try await test.file(.event, event, by: ann) == third)
            // The same id under another kind is another piece of content, with a tally of its own.
            #expect(try await test.tally(.media, event) == nil)
        }
    }

    @Test func threePeopleReportingAtOnceEachRetryingCountExactlyThree() async throws {
        try await SocialTestStack.with { stack in
            let test = ReportTest(stack)
            let event = try await test.event(by: try await test.met())
            let reporters = [ReportTest.someone(), ReportTest.someone(), ReportTest.someone()]
            let answers = try await withThrowingTaskGroup(of: Int.self) { group in
                for reporter in reporters + reporters {
                    group.addTask { try await test.file(.event, event, by: reporter).reporters }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(answers.count == 6 && answers.allSatisfy((1...3).contains) && answers.contains(3))
            #expect(try await test.tally(.event, event) == 3)
            let rows = try await stack.pool.query("SELECT count(*) FROM social.reports")[0].decode(Int.self)
            #expect(rows == 3)
        }
    }
}
