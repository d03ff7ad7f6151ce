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

    // Each event loop of the tool sends its own lane, so no call crosses threads: the lanes together must be
    // the whole schedule, each call once at its own due time, and count the due calls as the whole does.
    @Test(arguments: [1, 2, 3, 7])
    func lanesTogetherKeepTheWholeSchedule(count: Int) throws {
        let schedule = try #require(ArrivalSchedule(callsPerSecond: 1_000))
        let lanes = schedule.lanes(count)
        #expect(lanes.count == count)
        var dueTimes: [Duration] = []
        for lane in lanes {
            dueTimes += (0..<(1_000 / count + 1)).map(lane.due).filter { $0 < .seconds(1) }
        }
        #expect(dueTimes.sorted() == (0..<1_000).map(schedule.due))
        for elapsed in [Duration.zero, .microseconds(1), .milliseconds(2), .microseconds(2_500), .seconds(3)]
        {
            #expect(
                lanes.map { $0.callsDue(within: elapsed) }.reduce(0, +) == schedule.callsDue(within: elapsed))
        }
        #expect(schedule.lanes(0) == [schedule])
    }

    @Test func aRateThatIsNotPositiveIsRefused() {
        #expect(ArrivalSchedule(callsPerSecond: 0) == nil)
        #expect(ArrivalSchedule(callsPerSecond: -3) == nil)
        #expect(ArrivalSchedule(callsPerSecond: .infinity) == nil)
    }
}
