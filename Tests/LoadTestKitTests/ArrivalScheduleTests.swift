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

    // 100/s for 2 s, 400/s for 1 s, 100/s again: 200 calls before the surge, 400 in it, then 100 a second.
    @Test func aSurgeIsDueAtItsRateForItsSpanAndTheBaseRateAroundIt() throws {
        let surge = try #require(RateSurge(rate: 400, from: .seconds(2), length: .seconds(1)))
        let schedule = try #require(ArrivalSchedule(callsPerSecond: 100, surge: surge))
        #expect(schedule.due(199) == .milliseconds(1_990))
        #expect(schedule.due(200) == .seconds(2))
        #expect(schedule.due(201) == .microseconds(2_002_500))
        #expect(schedule.due(599) == .microseconds(2_997_500))
        #expect(schedule.due(600) == .seconds(3))
        #expect(schedule.due(700) == .seconds(4))
        for (elapsed, calls) in [
            (Duration.seconds(2), 200), (.microseconds(2_000_001), 201), (.seconds(3), 600),
            (.seconds(4), 700),
        ] {
            #expect(schedule.callsDue(within: elapsed) == calls)
        }
        for lanes in [2, 3] {
            let parts = schedule.lanes(lanes)
            #expect(parts.map { $0.callsDue(within: .seconds(4)) }.reduce(0, +) == 700)
            let dueTimes = parts.flatMap { lane in (0..<700).map(lane.due).filter { $0 < .seconds(4) } }
            #expect(dueTimes.sorted() == (0..<700).map(schedule.due))
        }
    }

    @Test func aSurgeFromTheStartHasNoEmptySpanBeforeIt() throws {
        let surge = try #require(RateSurge(rate: 50, from: .zero, length: .seconds(1)))
        let schedule = try #require(ArrivalSchedule(callsPerSecond: 10, surge: surge))
        #expect(schedule.due(49) == .milliseconds(980))
        #expect(schedule.due(50) == .seconds(1))
        #expect(schedule.due(51) == .milliseconds(1_100))
        #expect(schedule.callsDue(within: .seconds(2)) == 60)
    }

    @Test(arguments: [
        ("2400,20,60", RateSurge(rate: 2_400, from: .seconds(20), length: .seconds(60))),
        ("1500.5, 0, 0.5", RateSurge(rate: 1_500.5, from: .zero, length: .milliseconds(500))),
        ("2400,20", nil), ("0,20,60", nil), ("2400,-1,60", nil), ("2400,20,0", nil), ("a,b,c", nil),
        ("2400,20,60,1", nil), ("2400,inf,60", nil),
    ])
    func aSurgeIsWrittenRateFromFor(argument: String, surge: RateSurge?) {
        #expect(RateSurge(argument: argument) == surge)
    }

    @Test func aRateThatIsNotPositiveIsRefused() {
        #expect(ArrivalSchedule(callsPerSecond: 0) == nil)
        #expect(ArrivalSchedule(callsPerSecond: -3) == nil)
        #expect(ArrivalSchedule(callsPerSecond: .infinity) == nil)
    }
}
