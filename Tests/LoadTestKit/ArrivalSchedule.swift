import Foundation

/// The open loop's timetable: call `n` is due `n / rate` seconds after the start, whatever happened to the
/// calls before it. Its latency runs from when it was due, not from when the generator got round to sending
/// it, so a server that stalls is charged for every call that waited behind the stall (no coordinated
/// omission). A schedule can be dealt into lanes (`lanes(_:)`), one a sender: lane `k` of `n` holds the calls
/// `k`, `k + n`, `k + 2n`… at the same due times, so the lanes together keep the whole schedule. With a
/// `RateSurge`, calls are due at the surge's rate for its span, and at the base rate before and after it.
public struct ArrivalSchedule: Sendable, Equatable {
    /// A span of constant rate: its calls are due `1 / rate` apart from `start` (seconds after the start),
    /// the first of them being call `firstCall` of the whole schedule.
    struct Segment: Sendable, Equatable {
        let start: Double
        let rate: Double
        let firstCall: Int
    }

    /// The base rate: the whole schedule's but for a surge's span.
    public let callsPerSecond: Double
    /// This schedule's lane and how many lanes the whole schedule was dealt into (0 of 1: the whole schedule).
    public let lane: Int
    public let laneCount: Int
    /// In order of their starts, the first at 0.
    private let segments: [Segment]

    public init?(callsPerSecond: Double, surge: RateSurge? = nil) {
        guard callsPerSecond > 0, callsPerSecond.isFinite else { return nil }
        var rates = [(start: 0.0, rate: callsPerSecond)]
        if let surge {
            rates += [(surge.from.asSeconds, surge.rate), (surge.until.asSeconds, callsPerSecond)]
            // A surge from the start replaces the base rate's first span rather than following an empty one.
            if surge.from == .zero { rates.removeFirst() }
        }
        var segments: [Segment] = []
        for (start, rate) in rates {
            let firstCall = segments.last.map { $0.firstCall + Self.callsBefore(start, in: $0) } ?? 0
            segments.append(Segment(start: start, rate: rate, firstCall: firstCall))
        }
        self.init(callsPerSecond: callsPerSecond, segments: segments, lane: 0, of: 1)
    }

    private init(callsPerSecond: Double, segments: [Segment], lane: Int, of laneCount: Int) {
        self.callsPerSecond = callsPerSecond
        self.segments = segments
        self.lane = lane
        self.laneCount = laneCount
    }

    /// The schedule dealt into `count` lanes (at least one), each a sender's share: call `j` of lane `k` is
    /// call `j × count + k` of this schedule.
    public func lanes(_ count: Int) -> [ArrivalSchedule] {
        let count = max(1, count)
        return (0..<count).map {
            ArrivalSchedule(callsPerSecond: callsPerSecond, segments: segments, lane: $0, of: count)
        }
    }

    /// When call `index` (of this lane) is due, after the start.
    public func due(_ index: Int) -> Duration {
        let call = index * laneCount + lane
        let segment = segments.last { $0.firstCall <= call } ?? segments[0]
        let seconds = segment.start + Double(call - segment.firstCall) / segment.rate
        return .nanoseconds(Int64((seconds * 1e9).rounded()))
    }

    /// How many calls (of this lane) are due within `elapsed` of the start.
    public func callsDue(within elapsed: Duration) -> Int {
        let seconds = elapsed.asSeconds
        let segment = segments.last { $0.start < seconds } ?? segments[0]
        let whole = segment.firstCall + Self.callsBefore(seconds, in: segment)
        return max(0, (whole - lane + laneCount - 1) / laneCount)
    }

    /// The latency of call `index` that finished `finished` after the start.
    public func latency(of index: Int, finishedAt finished: Duration) -> Duration {
        finished - due(index)
    }

    /// The calls of `segment` due before `seconds` after the start.
    private static func callsBefore(_ seconds: Double, in segment: Segment) -> Int {
        max(0, Int(((seconds - segment.start) * segment.rate).rounded(.up)))
    }
}

/// A span of the open loop at another rate than the run's (`--surge`): `rate` calls a second from `from` after
/// the load starts, for `length`. Past the knee it shows whether the stack sheds what it cannot serve and how
/// soon after the surge its latencies are back (`LoadTimeline.recovery`).
public struct RateSurge: Sendable, Equatable {
    public let rate: Double
    public let from: Duration
    public let length: Duration

    public init?(rate: Double, from: Duration, length: Duration) {
        guard rate > 0, rate.isFinite, from >= .zero, length > .zero else { return nil }
        self.rate = rate
        self.from = from
        self.length = length
    }

    /// `RATE,FROM,FOR` as `--surge` takes it: calls a second, then seconds from the load's start and seconds
    /// long (`2400,20,60`).
    public init?(argument: String) {
        let fields = argument.split(separator: ",", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard fields.count == 3, let rate = fields[0], let from = fields[1], let length = fields[2],
            from.isFinite, length.isFinite
        else { return nil }
        self.init(rate: rate, from: .seconds(from), length: .seconds(length))
    }

    /// When the surge ends, after the load starts.
    public var until: Duration { from + length }
}
