/// A one-shot timer on an event loop; cancel it by removing it from the loop's heap.
final class LoopTimer {
    var deadline: UInt64
    var heapIndex = -1
    let action: () -> Void

    init(deadline: UInt64, action: @escaping () -> Void) {
        self.deadline = deadline
        self.action = action
    }
}

/// A binary min-heap of timers by deadline, with O(log n) removal through each timer's index.
struct TimerHeap {
    private var items: [LoopTimer] = []

    mutating func insert(_ timer: LoopTimer) {
        timer.heapIndex = items.count
        items.append(timer)
        siftUp(items.count - 1)
    }

    mutating func remove(_ timer: LoopTimer) {
        let index = timer.heapIndex
        guard index >= 0, index < items.count, items[index] === timer else { return }
        timer.heapIndex = -1
        let last = items.removeLast()
        guard index < items.count else { return }
        items[index] = last
        last.heapIndex = index
        siftDown(index)
        siftUp(index)
    }

    /// The epoll timeout until the earliest deadline: -1 without timers.
    func timeoutMillis(now: UInt64) -> Int32 {
        guard let first = items.first else { return -1 }
        if first.deadline <= now { return 0 }
        return Int32(min((first.deadline - now + 999_999) / 1_000_000, 60_000))
    }

    /// Removes and returns the earliest timer if its deadline has passed.
    mutating func popDue(now: UInt64) -> LoopTimer? {
        guard let first = items.first, first.deadline <= now else { return nil }
        remove(first)
        return first
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].deadline < items[parent].deadline else { return }
            swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < items.count && items[left].deadline < items[smallest].deadline { smallest = left }
            if right < items.count && items[right].deadline < items[smallest].deadline { smallest = right }
            guard smallest != parent else { return }
            swapAt(parent, smallest)
            parent = smallest
        }
    }

    private mutating func swapAt(_ first: Int, _ second: Int) {
        items.swapAt(first, second)
        items[first].heapIndex = first
        items[second].heapIndex = second
    }
}

extension EventLoop {
    /// Schedules `action` on this loop after `delay`; returns the timer for cancellation.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping () -> Void) -> LoopTimer {
        assertInLoop()
        let timer = LoopTimer(deadline: monotonicNanos() &+ delay.nanoseconds, action: action)
        timers.insert(timer)
        return timer
    }

    /// Runs every timer whose deadline has passed (actions may schedule or cancel timers).
    func fireDueTimers() {
        while let timer = timers.popDue(now: now) { timer.action() }
    }

    func cancel(_ timer: LoopTimer) {
        assertInLoop()
        timers.remove(timer)
    }
}
