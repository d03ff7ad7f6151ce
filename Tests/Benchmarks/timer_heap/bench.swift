import Glibc
import HeapModule

// The event loop's timer pattern, on `TimerHeap` (ours: cancel removes the timer at once through its index) and
// on swift-collections' `Heap` (no removal of an arbitrary element: a cancelled timer is marked and skipped when
// it comes to the top). Each call schedules a deadline 20 s out and cancels it when it ends 1-50 ms later, as a
// unary call with a grpc-timeout does; time advances 25 µs a call (40,000 calls/s); due timers fire.
// Deadlines vary (5-30 s, as callers' timeouts do); every call ends 10 ms after it starts.
// Built by `run` with swiftc -O; prints ns per schedule+cancel and the most entries each heap held.

/// A timer as `LoopTimer` is (a deadline and an action), with a mark for a lazy cancel.
final class LazyTimer: Comparable {
    let deadline: UInt64
    let action: () -> Void
    var cancelled = false
    init(deadline: UInt64, action: @escaping () -> Void) {
        self.deadline = deadline
        self.action = action
    }
    static func < (a: LazyTimer, b: LazyTimer) -> Bool { a.deadline < b.deadline }
    static func == (a: LazyTimer, b: LazyTimer) -> Bool { a === b }
}

func monotonicNow() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// The calls' timeouts (5-30 s), the same for both heaps.
func workload(_ calls: Int) -> [UInt64] {
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    return (0..<calls).map { _ in
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return 5_000_000_000 + (seed >> 33) % 25_000_000_000
    }
}

let callLength: UInt64 = 10_000_000
let callSpacing: UInt64 = 25_000

func runOurs(_ durations: [UInt64]) -> (ns: Double, peak: Int) {
    var heap = TimerHeap()
    var live: [LoopTimer?] = Array(repeating: nil, count: durations.count)
    var ended = 0
    var peak = 0, size = 0, fired = 0
    let start = monotonicNow()
    for (index, timeout) in durations.enumerated() {
        let now = UInt64(index) * callSpacing
        let timer = LoopTimer(deadline: now + timeout) { fired += 1 }
        heap.insert(timer)
        live[index] = timer
        size += 1
        while UInt64(ended) * callSpacing + callLength <= now {
            if let timer = live[ended] { heap.remove(timer); size -= 1 }
            live[ended] = nil
            ended += 1
        }
        while let due = heap.popDue(now: now) { due.action(); size -= 1 }
        peak = max(peak, size)
    }
    return (Double(monotonicNow() - start) / Double(durations.count), peak)
}

func runHeapModule(_ durations: [UInt64]) -> (ns: Double, peak: Int) {
    var heap = Heap<LazyTimer>()
    var live: [LazyTimer?] = Array(repeating: nil, count: durations.count)
    var ended = 0
    var peak = 0, fired = 0
    let start = monotonicNow()
    for (index, timeout) in durations.enumerated() {
        let now = UInt64(index) * callSpacing
        let timer = LazyTimer(deadline: now + timeout) { fired += 1 }
        heap.insert(timer)
        live[index] = timer
        while UInt64(ended) * callSpacing + callLength <= now {
            live[ended]?.cancelled = true
            live[ended] = nil
            ended += 1
        }
        while let top = heap.min, top.deadline <= now {
            _ = heap.removeMin()
            if !top.cancelled { top.action() }
        }
        peak = max(peak, heap.count)
    }
    return (Double(monotonicNow() - start) / Double(durations.count), peak)
}

@main struct Bench {
    static func main() {
        let calls = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 1_000_000
        let durations = workload(calls)
        for round in 1...3 {
            let ours = runOurs(durations)
            let theirs = runHeapModule(durations)
            print(
                "round \(round): TimerHeap \(Int(ours.ns)) ns/call, peak \(ours.peak) timers; "
                    + "HeapModule.Heap (lazy cancel) \(Int(theirs.ns)) ns/call, peak \(theirs.peak) entries")
        }
    }
}
