/// The open loop's timetable: call `n` is due `n / rate` seconds after the start, whatever happened to the
/// calls before it. Its latency runs from when it was due, not from when the generator got round to sending
/// it, so a server that stalls is charged for every call that waited behind the stall (no coordinated
/// omission). A schedule can be dealt into lanes (`lanes(_:)`), one a sender: lane `k` of `n` holds the calls
/// `k`, `k + n`, `k + 2n`… at the same due times, so the lanes together keep the whole schedule.
public struct ArrivalSchedule: Sendable, Equatable {
    public let callsPerSecond: Double
    /// This schedule's lane and how many lanes the whole schedule was dealt into (0 of 1: the whole schedule).
    public let lane: Int
    public let laneCount: Int

    public init?(callsPerSecond: Double) {
        guard callsPerSecond > 0, callsPerSecond.isFinite else { return nil }
        self.init(callsPerSecond: callsPerSecond, lane: 0, of: 1)
    }

    private init(callsPerSecond: Double, lane: Int, of laneCount: Int) {
        self.callsPerSecond = callsPerSecond
        self.lane = lane
        self.laneCount = laneCount
    }

    /// The schedule dealt into `count` lanes (at least one), each a sender's share: call `j` of lane `k` is
    /// call `j × count + k` of this schedule.
    public func lanes(_ count: Int) -> [ArrivalSchedule] {
        let count = max(1, count)
        return (0..<count).map { ArrivalSchedule(callsPerSecond: callsPerSecond, lane: $0, of: count) }
    }

    /// When call `index` (of this lane) is due, after the start.
    public func due(_ index: Int) -> Duration {
        .nanoseconds(Int64((Double(index * laneCount + lane) * 1e9 / callsPerSecond).rounded()))
    }

    /// How many calls (of this lane) are due within `elapsed` of the start.
    public func callsDue(within elapsed: Duration) -> Int {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let whole = Int((seconds * callsPerSecond).rounded(.up))
        return max(0, (whole - lane + laneCount - 1) / laneCount)
    }

    /// The latency of call `index` that finished `finished` after the start.
    public func latency(of index: Int, finishedAt finished: Duration) -> Duration {
        finished - due(index)
    }
}
