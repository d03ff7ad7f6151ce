import LoadTestKit
import Testing

/// The open loop's dispatcher on an injected clock: every `now` below is a time since the load started.
@Suite struct OpenLoopTimetableTests {
    func timetable(rate: Double = 100, duration: Duration = .seconds(1), deadline: Duration = .seconds(2))
        throws -> OpenLoopTimetable
    {
        OpenLoopTimetable(
            schedule: try #require(ArrivalSchedule(callsPerSecond: rate)), duration: duration,
            deadline: deadline)
    }

    @Test func aCallGoesOutAtItsDueTimeAndTheNextIsWaitedFor() throws {
        var table = try timetable()
        let step1 = table.step(at: .zero)
        #expect(step1 == .send(index: 0, due: .zero))
        let step2 = table.step(at: .milliseconds(1))
        #expect(step2 == .wait(until: .milliseconds(10)))
        let step3 = table.step(at: .milliseconds(10))
        #expect(step3 == .send(index: 1, due: .milliseconds(10)))
        let step4 = table.step(at: .milliseconds(10))
        #expect(step4 == .wait(until: .milliseconds(20)))
    }

    // A tool that woke 35 ms late sends the three calls it owes at once, each still due when it was due (its
    // latency runs from then): it does not wait for earlier answers, nor shift the schedule.
    @Test func aLateToolSendsWhatItOwesWithTheirOwnDueTimes() throws {
        var table = try timetable()
        var sent: [OpenLoopTimetable.Step] = []
        while case .send(let index, let due) = table.step(at: .milliseconds(35)) {
            sent.append(.send(index: index, due: due))
        }
        #expect(
            sent == [
                .send(index: 0, due: .zero), .send(index: 1, due: .milliseconds(10)),
                .send(index: 2, due: .milliseconds(20)), .send(index: 3, due: .milliseconds(30)),
            ])
        let step5 = table.step(at: .milliseconds(35))
        #expect(step5 == .wait(until: .milliseconds(40)))
    }

    // Calls whose deadline passed before the tool got to them are not sent: their answers could not count.
    @Test func callsPastTheirDeadlineAreSkippedNotSent() throws {
        var table = try timetable(deadline: .milliseconds(50))
        let step6 = table.step(at: .milliseconds(125))
        #expect(step6 == .send(index: 8, due: .milliseconds(80)))
        #expect(table.expired == 8)
    }

    @Test func nothingIsSentAtOrAfterTheDurationAndWhatWasNotReachedIsCounted() throws {
        var table = try timetable(rate: 10, duration: .seconds(1))
        let step7 = table.step(at: .zero)
        #expect(step7 == .send(index: 0, due: .zero))
        let step8 = table.step(at: .milliseconds(100))
        #expect(step8 == .send(index: 1, due: .milliseconds(100)))
        // Stalled past the end: calls 2…9 were due within the second and never went out.
        let step9 = table.step(at: .milliseconds(1_000))
        #expect(step9 == .stop)
        #expect(table.unsent == 8)
        #expect(table.expired == 0)
        let step10 = table.step(at: .zero)
        #expect(step10 == .stop)
    }

    @Test func theLastCallIsTheOneDueBeforeTheDuration() throws {
        var table = try timetable(rate: 4, duration: .seconds(1))
        for index in 0..<4 {
            let due = Duration.milliseconds(250 * index)
            let step11 = table.step(at: due)
            #expect(step11 == .send(index: index, due: due))
        }
        let step12 = table.step(at: .milliseconds(750))
        #expect(step12 == .stop)
        #expect(table.unsent == 0)
    }

    @Test func aCallIsLateOnlyPastTheTolerance() {
        var lateness = SendLateness()
        lateness.record(lag: .zero)
        lateness.record(lag: SendLateness.tolerance)
        lateness.record(lag: SendLateness.tolerance + .milliseconds(1))
        #expect(lateness.late == 1)
        #expect(lateness.lags.count == 3)
        #expect(lateness.lags.maxMicroseconds == 6_000)
    }
}
