import Foundation
import LoadTestKit
import Testing

@Suite struct LoadTimelineTests {
    /// A timeline whose second `k` holds `answered[k]` calls answered in `latency[k]` ms and `shed[k]` shed.
    static func timeline(_ seconds: [(answered: Int, latencyMs: Int, shed: Int)]) -> LoadTimeline {
        var timeline = LoadTimeline()
        for (index, second) in seconds.enumerated() {
            let due = Duration.seconds(index) + .milliseconds(500)
            for _ in 0..<second.answered {
                timeline.record(due: due, .answered(latency: .milliseconds(second.latencyMs)))
            }
            for _ in 0..<second.shed { timeline.record(due: due, .shed) }
        }
        return timeline
    }

    @Test func callsCountInTheSecondTheyWereDue() {
        var timeline = LoadTimeline()
        timeline.record(due: .milliseconds(999), .answered(latency: .milliseconds(7)))
        timeline.record(due: .seconds(1), .shed)
        timeline.record(due: .milliseconds(3_100), .failed)
        timeline.record(due: .milliseconds(-1), .failed)
        #expect(timeline.seconds.map(\.calls) == [1, 1, 0, 1])
        #expect(timeline.seconds[0].answered == 1)
        #expect(timeline.seconds[0].latencies.percentileMilliseconds(0.99) == 7)
        #expect(timeline.seconds[1].shed == 1)
        #expect(timeline.seconds[3].failed == 1)
        let total = timeline.total(0..<10)
        #expect((total.answered, total.shed, total.failed) == (1, 1, 1))
    }

    // The surge ends at second 2. Budget 100 ms, at most 1% of a second's calls shed or failed, two seconds in
    // a row within it make a recovery.
    @Test(
        arguments: [
            // Back at once.
            ([(100, 20, 0), (50, 400, 50), (100, 30, 0), (100, 20, 0)], 0),
            // Slow for a second after the surge, then back.
            ([(100, 20, 0), (50, 400, 50), (100, 150, 0), (100, 20, 0), (100, 20, 0)], 1),
            // One good second is not yet back; the two in a row after the next lapse are.
            ([(100, 20, 0), (50, 400, 50), (100, 20, 0), (100, 200, 0), (100, 20, 0), (100, 20, 0)], 2),
            // A blip after the recovery is not the surge's.
            ([(100, 20, 0), (50, 400, 50), (100, 20, 0), (100, 20, 0), (100, 200, 0)], 0),
            // Fast but still shedding 2%: not back.
            ([(100, 20, 0), (50, 400, 50), (98, 20, 2), (100, 20, 0), (100, 20, 0)], 1),
            // One shed call in a hundred is within the knee's 1%.
            ([(100, 20, 0), (50, 400, 50), (99, 20, 1), (100, 20, 0)], 0),
        ] as [([(Int, Int, Int)], Int)])
    func recoveryIsTheFirstOfSecondsInARowWithinBudget(seconds: [(Int, Int, Int)], expected: Int) {
        let timeline = Self.timeline(seconds.map { (answered: $0.0, latencyMs: $0.1, shed: $0.2) })
        #expect(timeline.recovery(after: 2, budgetMs: 100, maxFailureRatio: 0.01, settle: 2) == expected)
    }

    @Test func aRunThatEndsBeforeItSettlesHasNotRecovered() {
        let timeline = Self.timeline([(100, 20, 0), (50, 400, 50), (100, 20, 0), (100, 300, 0), (100, 20, 0)])
        #expect(timeline.recovery(after: 2, budgetMs: 100, maxFailureRatio: 0.01, settle: 2) == nil)
        #expect(timeline.recovery(after: 6, budgetMs: 100, maxFailureRatio: 0.01, settle: 2) == nil)
        #expect(timeline.secondsOverBudget(0..<9, budgetMs: 100, maxFailureRatio: 0.01) == 2)
    }

    @Test func theReportSplitsTheRunAroundTheSurgeAndSaysWhenItWasBack() throws {
        let timeline = Self.timeline(
            [(100, 20, 0), (100, 200, 0), (150, 300, 250), (150, 300, 250), (100, 150, 0)]
                + Array(repeating: (100, 20, 0), count: 5))
        let surge = try #require(RateSurge(rate: 400, from: .seconds(2), length: .seconds(2)))
        let report = RunReport(
            rpcs: [:], realtime: [:], users: 1, duration: .seconds(10), timeline: timeline,
            surge: RunReport.Surge(surge, timeline: timeline, seconds: 10, budgetMs: 100))
        let object = try #require(JSONSerialization.jsonObject(with: report.json()) as? [String: Any])
        let seconds = try #require(object["timeline"] as? [[String: Any]])
        #expect(seconds.count == 10)
        #expect(
            Set(seconds[2].keys) == ["second", "calls", "answered", "shed", "failed", "p50_ms", "p99_ms"])
        #expect(seconds[2]["second"] as? Int == 2)
        #expect(seconds[2]["calls"] as? Int == 400)
        #expect(seconds[2]["shed"] as? Int == 250)
        let judged = try #require(object["surge"] as? [String: Any])
        #expect(
            Set(judged.keys) == [
                "rate", "from_s", "length_s", "budget_ms", "max_failure_ratio", "settle_s", "before",
                "during",
                "after", "recovered_after_s",
            ])
        #expect(judged["recovered_after_s"] as? Int == 1)
        let before = try #require(judged["before"] as? [String: Any])
        #expect(before["answered_per_s"] as? Double == 100)
        #expect(before["seconds"] as? Int == 2)
        #expect(before["seconds_over_budget"] as? Int == 1)
        let during = try #require(judged["during"] as? [String: Any])
        #expect(during["answered_per_s"] as? Double == 150)
        #expect(during["shed"] as? Int == 500)
        let after = try #require(judged["after"] as? [String: Any])
        #expect(after["seconds"] as? Int == 6)
        #expect(after["seconds_over_budget"] as? Int == 1)

        let slow = Self.timeline([(100, 20, 0), (100, 300, 0)])
        let unrecovered = RunReport(
            rpcs: [:], realtime: [:], users: 1, duration: .seconds(2), timeline: slow,
            surge: RunReport.Surge(
                try #require(RateSurge(rate: 400, from: .zero, length: .seconds(1))), timeline: slow,
                seconds: 2, budgetMs: 100))
        let unrecoveredObject = try #require(
            JSONSerialization.jsonObject(with: unrecovered.json()) as? [String: Any])
        let unrecoveredSurge = try #require(unrecoveredObject["surge"] as? [String: Any])
        // Present and null: the run ended before it was back.
        #expect(unrecoveredSurge.keys.contains("recovered_after_s"))
        #expect(unrecoveredSurge["recovered_after_s"] is NSNull)
    }
}
