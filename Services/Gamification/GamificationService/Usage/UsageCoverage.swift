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
        var merged: [Range<Date>] = []
        for span in spans.sorted(by: { $0.lowerBound < $1.lowerBound }) where !span.isEmpty {
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
