import FoundationEssentials

/// How many of a user's stored sessions of each track cover each instant of one UTC day: what an upload needs
/// of the sessions already stored, kept per day (`gamification.usage_coverage`, sealed) so that an upload reads
/// the one or two days its sessions touch instead of every session around them. Counts, not merged intervals,
/// because a newer version takes back its own old time only: where another session of the track still covers
/// that time, the count stays above zero and the time stays counted.
struct UsageDayCounts: Sendable, Equatable {
    /// From `start` to `end` (microseconds from 2000-01-01, as sessions are sealed), covered by `count` sessions.
    struct Segment: Sendable, Equatable {
        var start: Int64
        var end: Int64
        var count: Int64
    }

    static let microsecondsPerDay: Int64 = 86_400_000_000

    /// The day's UTC midnight.
    let day: Date
    /// Per track, the disjoint segments in order where at least one session covers it.
    private(set) var tracks: [UsageTrack: [Segment]]

    init(day: Date, tracks: [UsageTrack: [Segment]] = [:]) {
        self.day = day
        self.tracks = tracks
    }

    private var start: Int64 { UsageSessions.microseconds(day) }

    /// Adds `delta` (1: a session stored, -1: a version replaced) over the part of `session` on this day.
    mutating func add(_ session: UsageBatch.Session, _ delta: Int64) {
        let from = max(UsageSessions.microseconds(session.start), start)
        let to = min(UsageSessions.microseconds(session.end), start + Self.microsecondsPerDay)
        guard from < to else { return }
        let segments = tracks[session.track] ?? []
        let points = Set([from, to] + segments.flatMap { [$0.start, $0.end] }).sorted()
        var result: [Segment] = []
        var next = segments.startIndex
        for (low, high) in zip(points, points.dropFirst()) {
            while next < segments.endIndex, segments[next].end <= low { next += 1 }
            var count = next < segments.endIndex && segments[next].start <= low ? segments[next].count : 0
            // A version the counts never held (a row written around them) takes back nothing.
            if from <= low && high <= to { count = max(0, count + delta) }
            guard count > 0 else { continue }
            if let last = result.last, last.end == low, last.count == count {
                result[result.count - 1].end = high
            } else {
                result.append(Segment(start: low, end: high, count: count))
            }
        }
        tracks[session.track] = result.isEmpty ? nil : result
    }

    /// The time the sessions of `track` cover on this day, in order.
    func covered(_ track: UsageTrack) -> [Range<Date>] {
        (tracks[track] ?? []).map { UsageSessions.instant($0.start)..<UsageSessions.instant($0.end) }
    }

    /// The UTC midnights of the days `span` touches (two at most, as no session lasts over 24 hours).
    static func days(of span: Range<Date>) -> [Date] {
        let first = UsageSessions.microseconds(span.lowerBound).floorDivided(by: microsecondsPerDay)
        let last = (UsageSessions.microseconds(span.upperBound) - 1).floorDivided(by: microsecondsPerDay)
        return (first...max(first, last)).map { UsageSessions.instant($0 * microsecondsPerDay) }
    }
}

extension [UsageDayCounts] {
    /// Adds `delta` over `session` on each of these days.
    mutating func add(_ session: UsageBatch.Session, _ delta: Int64) {
        for index in indices { self[index].add(session, delta) }
    }

    /// The time the sessions of `track` cover on these days.
    func covered(_ track: UsageTrack) -> [Range<Date>] { flatMap { $0.covered(track) } }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return self % divisor < 0 ? quotient - 1 : quotient
    }
}
