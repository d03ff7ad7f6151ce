import LoadTestKit
import Testing

@Suite struct ServerSpendingTests {
    // A server: the difference of its two figures.
    @Test func aServerSpentTheDifference() {
        let start = ServerSpending(ticks: 100, switches: ContextSwitches(voluntary: 10, nonvoluntary: 2))
        let end = ServerSpending(ticks: 250, switches: ContextSwitches(voluntary: 40, nonvoluntary: 5))
        #expect(
            end.since(start)
                == ServerSpending(ticks: 150, switches: ContextSwitches(voluntary: 30, nonvoluntary: 3)))
    }

    // Backends counted one by one: the one that stayed spent its difference, the one that began counts whole,
    // and the one that ended takes its time with it instead of taking the others' below zero.
    @Test func backendsAreCountedEachAgainstItsOwnEarlierFigure() {
        let start = ServerSpending(processes: [
            11: ServerSpending(ticks: 500, switches: ContextSwitches(voluntary: 50)),
            12: ServerSpending(ticks: 9_000, switches: ContextSwitches(voluntary: 900)),
        ])
        let end = ServerSpending(processes: [
            11: ServerSpending(ticks: 620, switches: ContextSwitches(voluntary: 80)),
            13: ServerSpending(ticks: 40, switches: ContextSwitches(voluntary: 4, nonvoluntary: 1)),
        ])
        #expect(
            end.since(start)
                == ServerSpending(ticks: 160, switches: ContextSwitches(voluntary: 34, nonvoluntary: 1)))
    }
}
