/// The open loop's timetable: call `n` is due `n / rate` seconds after the start, whatever happened to the
/// calls before it. Its latency runs from when it was due, not from when the generator got round to sending
/// it, so a server that stalls is charged for every call that waited behind the stall (no coordinated
/// omission).
public struct ArrivalSchedule: Sendable, Equatable {
    public let callsPerSecond: Double

    public init?(callsPerSecond: Double) {
        guard callsPerSecond > 0, callsPerSecond.isFinite else { return nil }
        self.callsPerSecond = callsPerSecond
    }

    /// When call `index` is due, after the start.
    public func due(_ index: Int) -> Duration {
        .nanoseconds(Int64((Double(index) * 1e9 / callsPerSecond).rounded()))
    }

    /// How many calls are due within `elapsed` of the start.
    public func callsDue(within elapsed: Duration) -> Int {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Int((seconds * callsPerSecond).rounded(.up))
    }

    /// The latency of call `index` that finished `finished` after the start.
    public func latency(of index: Int, finishedAt finished: Duration) -> Duration {
        finished - due(index)
    }
}
