import LoadTestKit
import Testing

@Suite struct ArrivalScheduleTests {
    @Test func callsAreDueAtAFixedRateFromTheStart() throws {
        let schedule = try #require(ArrivalSchedule(callsPerSecond: 200))
        #expect(schedule.due(0) == .zero)
        #expect(schedule.due(1) == .milliseconds(5))
        #expect(schedule.due(200) == .seconds(1))
        #expect(schedule.callsDue(within: .seconds(2)) == 400)
    }

    // A server stalled for a second while calls were due every 5 ms: a generator that waited for the stalled
    // call before sending the next (coordinated omission) would see one slow call and 199 fast ones; measured
    // from when each was due, every call behind the stall is charged its wait.
    @Test func aStallIsChargedToEveryCallDueDuringIt() throws {
        let schedule = try #require(ArrivalSchedule(callsPerSecond: 200))
        var histogram = LatencyHistogram()
        let stallEnds = Duration.seconds(1)
        for index in 0..<200 {
            let finished = max(schedule.due(index), stallEnds) + .milliseconds(1)
            histogram.record(schedule.latency(of: index, finishedAt: finished))
        }
        #expect(histogram.percentile(0.5) >= 490_000)
        #expect(histogram.maxMicroseconds == 1_001_000)
        #expect(histogram.percentile(0.99) >= 980_000)
    }

    @Test func aRateThatIsNotPositiveIsRefused() {
        #expect(ArrivalSchedule(callsPerSecond: 0) == nil)
        #expect(ArrivalSchedule(callsPerSecond: -3) == nil)
        #expect(ArrivalSchedule(callsPerSecond: .infinity) == nil)
    }
}
