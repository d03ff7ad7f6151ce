import Testing
@testable import KindredRPC

@Suite struct TimerHeapTests {
    private func timer(_ deadline: UInt64, _ fired: @escaping (UInt64) -> Void) -> LoopTimer {
        LoopTimer(deadline: deadline) { fired(deadline) }
    }

    @Test func dueTimersComeOutInDeadlineOrder() {
        var heap = TimerHeap()
        var fired: [UInt64] = []
        for deadline: UInt64 in [50, 10, 40, 20, 30, 60] { heap.insert(timer(deadline) { fired.append($0) }) }
        while let due = heap.popDue(now: 45) { due.action() }
        #expect(fired == [10, 20, 30, 40])
        #expect(heap.timeoutMillis(now: 45) == 1)
    }

    @Test func removedTimersNeverFire() {
        var heap = TimerHeap()
        var fired: [UInt64] = []
        let timers = (1...20).map { index in timer(UInt64(index)) { fired.append($0) } }
        timers.forEach { heap.insert($0) }
        for index in stride(from: 0, to: 20, by: 3) { heap.remove(timers[index]) }
        heap.remove(timers[0])
        while let due = heap.popDue(now: 100) { due.action() }
        #expect(fired == (1...20).filter { ($0 - 1) % 3 != 0 }.map(UInt64.init))
        #expect(heap.timeoutMillis(now: 100) == -1)
    }
}
