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

    /// The separate stretches of use a day may hold, over all its apps and devices. A phone's sessions do not
    /// overlap, so its day holds about one stretch a session: a few hundred on a heavy day. Without a bound a
    /// client uploading sessions that split each other on purpose would grow the day's sealed value, which every
    /// upload touching the day opens, re-seals and writes back whole, without end (30 KB at the bound).
    static let maximumStretches = 10_000

    /// The day's UTC midnight.
    let day: Date
    /// Per track, the disjoint segments in order where at least one session covers it.
    private(set) var tracks: [UsageTrack: [Segment]]

    init(day: Date, tracks: [UsageTrack: [Segment]] = [:]) {
        self.day = day
        self.tracks = tracks
    }

    private var start: Int64 { UsageSessions.microseconds(day) }

    /// The day's separate stretches of use: its segments, over every track.
    var stretches: Int { tracks.values.reduce(0) { $0 + $1.count } }

    /// Adds `delta` (1: a session stored, -1: a version replaced) over the part of `session` on this day.
    ///
    /// Only the segments the session overlaps or touches are rebuilt, in one pass, in place: a segment is split
    /// only at the session's ends, the time the session covers between segments is added as new segments, and
    /// neighbours left with equal counts merge. Segments ending before the session starts or starting after it
    /// ends can neither split nor merge (the stored segments are already merged, so a touching neighbour's
    /// count differs), so the cost is a binary search and the segments under the session, not the day's.
    mutating func add(_ session: UsageBatch.Session, _ delta: Int64) {
        let from = max(UsageSessions.microseconds(session.start), start)
        let to = min(UsageSessions.microseconds(session.end), start + Self.microsecondsPerDay)
        guard from < to else { return }
        // Changed in place, with one lookup of the track; only a take-back can leave it without segments.
        tracks[session.track, default: []].add(from..<to, delta)
        if delta <= 0, tracks[session.track]?.isEmpty == true { tracks[session.track] = nil }
    }

    /// Segments appended in order: an empty one or one without sessions is dropped, and one that continues the
    /// last with the same count extends it.
    fileprivate struct Pieces {
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

    /// The time the sessions of `track` cover on this day that overlaps or touches any of `spans` (in order of
    /// their starts), in order: all of it a comparison of coverage within `spans` can see, found by binary
    /// search, so the cost is the segments near the spans, not the day's.
    func covered(_ track: UsageTrack, near spans: [Range<Date>]) -> [Range<Date>] {
        guard let segments = tracks[track] else { return [] }
        var taken = segments.startIndex
        var covered: [Range<Date>] = []
        for span in spans {
            // A microsecond wider on each side, since a span's ends need not be whole microseconds.
            let from = UsageSessions.microseconds(span.lowerBound) - 1
            let to = UsageSessions.microseconds(span.upperBound) + 1
            var index = segments.firstIndex(from: taken) { $0.end >= from }
            while index < segments.endIndex, segments[index].start <= to {
                let segment = segments[index]
                covered.append(UsageSessions.instant(segment.start)..<UsageSessions.instant(segment.end))
                index += 1
            }
            taken = index
        }
        return covered
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

    /// The time the sessions of `track` cover on these days that overlaps or touches any of `spans` (in order of
    /// their starts), in order.
    func covered(_ track: UsageTrack, near spans: [Range<Date>]) -> [Range<Date>] {
        flatMap { $0.covered(track, near: spans) }
    }
}

extension [UsageDayCounts.Segment] {
    /// Adds `delta` over `span`: the segments `span` overlaps or touches rebuilt in one pass (`UsageDayCounts.add`).
    fileprivate mutating func add(_ span: Range<Int64>, _ delta: Int64) {
        let (from, to) = (span.lowerBound, span.upperBound)
        let first = firstIndex(from: startIndex) { $0.end >= from }
        let last = firstIndex(from: first) { $0.start > to }
        var result = UsageDayCounts.Pieces(capacity: last - first + 2)
        // A version the counts never held (a row written around them) takes back nothing.
        let moved = { (count: Int64) in Swift.max(0, count + delta) }
        var covered = Int64.min
        for segment in self[first..<last] {
            result.append(Swift.max(covered, from), Swift.min(segment.start, to), moved(0))
            result.append(segment.start, Swift.min(segment.end, from), segment.count)
            result.append(Swift.max(segment.start, from), Swift.min(segment.end, to), moved(segment.count))
            result.append(Swift.max(segment.start, to), segment.end, segment.count)
            covered = Swift.max(covered, segment.end)
        }
        result.append(Swift.max(covered, from), to, moved(0))
        replaceSubrange(first..<last, with: result.segments)
    }

    /// The first index at or after `start` whose segment satisfies `isAtOrPast`, which holds for no segment before
    /// some point and for every one after it (segments are disjoint and in order); `endIndex` if none does.
    fileprivate func firstIndex(from start: Int, where isAtOrPast: (UsageDayCounts.Segment) -> Bool) -> Int {
        var (low, high) = (start, endIndex)
        while low < high {
            let middle = low + (high - low) / 2
            if isAtOrPast(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return self % divisor < 0 ? quotient - 1 : quotient
    }
}
