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
    ///
    /// One pass over the track's segments, in order: a segment is split only at the session's ends, the time
    /// the session covers between segments is added as new segments, and neighbours left with equal counts
    /// merge, so the cost is linear in the segments of the track on this day, with no sorting.
    mutating func add(_ session: UsageBatch.Session, _ delta: Int64) {
        let from = max(UsageSessions.microseconds(session.start), start)
        let to = min(UsageSessions.microseconds(session.end), start + Self.microsecondsPerDay)
        guard from < to else { return }
        let segments = tracks[session.track] ?? []
        var result = Pieces(capacity: segments.count + 2)
        // A version the counts never held (a row written around them) takes back nothing.
        let moved = { (count: Int64) in max(0, count + delta) }
        var covered = Int64.min
        for segment in segments {
            result.append(max(covered, from), min(segment.start, to), moved(0))
            result.append(segment.start, min(segment.end, from), segment.count)
            result.append(max(segment.start, from), min(segment.end, to), moved(segment.count))
            result.append(max(segment.start, to), segment.end, segment.count)
            covered = max(covered, segment.end)
        }
        result.append(max(covered, from), to, moved(0))
        tracks[session.track] = result.segments.isEmpty ? nil : result.segments
    }

    /// Segments appended in order: an empty one or one without sessions is dropped, and one that continues the
    /// last with the same count extends it.
    private struct Pieces {
        var segments: [Segment] = []

        init(capacity: Int) { segments.reserveCapacity(capacity) }

        mutating func append(_ low: Int64, _ high: Int64, _ count: Int64) {
            guard low < high, count > 0 else { return }
            if let last = segments.last, last.end == low, last.count == count {
                segments[segments.count - 1].end = high
            } else {
                segments.append(Segment(start: low, end: high, count: count))
            }
        }
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
