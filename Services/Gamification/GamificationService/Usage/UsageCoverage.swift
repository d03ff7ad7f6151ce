import FoundationEssentials

/// One app on one device: the time of a track counts once, however many of its sessions cover it.
struct UsageTrack: Sendable, Hashable {
    let deviceID: String
    let appID: String
}

extension UsageBatch.Session {
    /// From start to end.
    var span: Range<Date> { start..<end }
}

/// The time a set of sessions of one track covers, as disjoint intervals in order: overlapping or touching
/// sessions merge, so an instant counts once.
struct UsageCoverage: Sendable, Equatable {
    private(set) var intervals: [Range<Date>]

    init(_ spans: [Range<Date>]) {
        // Spans come as a day's segments, already in order, then the few of a batch: only what follows the
        // ordered run is sorted, and the two runs are merged in one pass.
        var ordered = 1
        while ordered < spans.count, spans[ordered - 1].lowerBound <= spans[ordered].lowerBound {
            ordered += 1
        }
        let run = spans.prefix(ordered)
        let rest = spans.dropFirst(ordered).sorted { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Date>] = []
        merged.reserveCapacity(spans.count)
        var (left, right) = (run.startIndex, rest.startIndex)
        while left < run.endIndex || right < rest.endIndex {
            let takeLeft =
                right == rest.endIndex
                || (left < run.endIndex && run[left].lowerBound <= rest[right].lowerBound)
            let span = takeLeft ? run[left] : rest[right]
            if takeLeft { left += 1 } else { right += 1 }
            guard !span.isEmpty else { continue }
            if let last = merged.last, span.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
            } else {
                merged.append(span)
            }
        }
        intervals = merged
    }

    /// What this covers and `other` does not, as disjoint intervals in order.
    func subtracting(_ other: UsageCoverage) -> [Range<Date>] {
        var left: [Range<Date>] = []
        var cuts = other.intervals[...]
        for interval in intervals {
            var start = interval.lowerBound
            while let cut = cuts.first, cut.upperBound <= start { cuts.removeFirst() }
            for cut in cuts {
                if cut.lowerBound >= interval.upperBound { break }
                if cut.lowerBound > start { left.append(start..<cut.lowerBound) }
                start = max(start, cut.upperBound)
            }
            if start < interval.upperBound { left.append(start..<interval.upperBound) }
        }
        return left
    }
}
