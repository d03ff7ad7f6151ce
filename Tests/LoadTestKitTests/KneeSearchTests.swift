import Foundation
import LoadTestKit
import Testing

@Suite struct KneeSearchTests {
    func report(p99Microseconds: UInt64, calls: Int = 200, failed: Int = 0, lateness: SendLateness = .init())
        -> RunReport
    {
        var tally = RPCTally()
        for _ in 0..<(calls - failed) { tally.latencies.record(microseconds: p99Microseconds) }
        if failed > 0 { tally.failures[.init(status: "DEADLINE_EXCEEDED")] = failed }
        var signIns = RPCTally()
        signIns.latencies.record(microseconds: 3_000_000)
        return RunReport(
            rpcs: [
                "kindred.social.v1.SocialService/ListFeed": tally,
                "identity/Token (password sign-in)": signIns,
            ],
            realtime: [:], generator: .init(rate: 100, deadline: .seconds(2), lateness: lateness), users: 10,
            duration: .seconds(30))
    }

    @Test func theRatesStepFromTheFirstToTheLast() {
        #expect(KneeSearch.rates(from: 500, step: 500, to: 2_000) == [500, 1_000, 1_500, 2_000])
        #expect(KneeSearch.rates(from: 500, step: 0, to: 2_000).isEmpty)
    }

    // The sign-ins' p99 (3 s) is over budget, but one call is too few to judge: the RPCs with enough calls decide.
    @Test func theKneeIsTheLastRateWithinBudget() throws {
        var search = KneeSearch(budget: .init(p99Ms: 500))
        let goesOn1 = search.add(report(p99Microseconds: 20_000), rate: 500)
        #expect(goesOn1)
        let goesOn2 = search.add(report(p99Microseconds: 300_000), rate: 1_000)
        #expect(goesOn2)
        let goesOn3 = search.add(report(p99Microseconds: 900_000), rate: 1_500)
        #expect(!goesOn3)
        #expect(search.knee == 1_000)
        let last = try #require(search.steps.last)
        #expect(last.over.count == 1)
        #expect(last.over.first?.hasPrefix("kindred.social.v1.SocialService/ListFeed p99 9") == true)
        #expect(!last.toolBound)
    }

    // A stack that answers DEADLINE_EXCEEDED fast has a fine p99 of the calls that succeeded: failures count.
    @Test func failuresPastTheirShareAreOverBudget() {
        var search = KneeSearch(budget: .init(p99Ms: 500))
        let goesOn4 = search.add(report(p99Microseconds: 1_000, failed: 20), rate: 4_000)
        #expect(!goesOn4)
        #expect(search.knee == nil)
    }

    // A send lag of 17 ms at p99 (a busy machine's timers) is late but no threat to a 500 ms budget; 60 ms is.
    @Test func aStepTheToolCouldNotKeepIsToolBoundNotTheStacksKnee() throws {
        var fine = SendLateness()
        for _ in 0..<10 { fine.record(lag: .milliseconds(17)) }
        for _ in 0..<90 { fine.record(lag: .zero) }
        var lateness = SendLateness()
        for _ in 0..<10 { lateness.record(lag: .milliseconds(60)) }
        for _ in 0..<90 { lateness.record(lag: .zero) }
        var search = KneeSearch(budget: .init(p99Ms: 500))
        let goesOnWhenLate = search.add(report(p99Microseconds: 1_000, lateness: fine), rate: 4_000)
        #expect(goesOnWhenLate)
        let goesOn5 = search.add(report(p99Microseconds: 1_000, lateness: lateness), rate: 8_000)
        #expect(!goesOn5)
        #expect(try #require(search.steps.last).toolBound)
    }

    @Test func theJSONHoldsTheBudgetEveryStepAndTheKnee() throws {
        var search = KneeSearch(budget: .init(p99Ms: 500, minCalls: 50))
        _ = search.add(report(p99Microseconds: 20_000), rate: 500)
        let object = try #require(
            try JSONSerialization.jsonObject(with: search.json()) as? [String: Any])
        #expect(Set(object.keys) == ["budget", "steps", "knee_rate"])
        #expect(object["knee_rate"] as? Double == 500)
        let budget = try #require(object["budget"] as? [String: Any])
        #expect(budget["p99_ms"] as? Double == 500)
        #expect(budget["min_calls"] as? Int == 50)
        let steps = try #require(object["steps"] as? [[String: Any]])
        #expect(Set(steps[0].keys) == ["rate", "within_budget", "tool_bound", "over", "report"])
        #expect((steps[0]["report"] as? [String: Any])?["generator"] != nil)
    }
}
