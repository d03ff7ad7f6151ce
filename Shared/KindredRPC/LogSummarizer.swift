/// Decides which of a stream of log lines an attacker could repeat at will are written one by one: the
/// first `linesPerWindow` of each window, and for the rest a count, written as one summary line when the
/// window ends. A value without a clock: the caller passes the time of each event (the loop's `now`), and
/// arms a timer for `summaryDue` when told to.
struct LogSummarizer<Key: Hashable> {
    let linesPerWindow: Int
    let window: UInt64
    private var windowStart: UInt64?
    private var written = 0
    /// Lines counted instead of written since the last summary, by key.
    private(set) var counted: [Key: Int] = [:]

    enum Decision: Equatable {
        case write
        /// Count it; `armSummaryAt` is the first count since the last summary: arm a timer that calls
        /// `takeSummary` at that time.
        case count(armSummaryAt: UInt64?)
    }

    init(linesPerWindow: Int, window: Duration) {
        self.linesPerWindow = linesPerWindow
        self.window = window.nanoseconds
    }

    /// Whether the line for `key` at `now` is written, or counted for the next summary.
    mutating func admit(_ key: Key, now: UInt64) -> Decision {
        startWindowIfDue(now)
        guard written >= linesPerWindow else {
            written += 1
            return .write
        }
        return .count(armSummaryAt: count(key))
    }

    /// Counts a line for `key` that is never written on its own, whatever the window holds; the time to arm
    /// the summary's timer at, as `Decision.count` gives it.
    mutating func count(_ key: Key, now: UInt64) -> UInt64? {
        startWindowIfDue(now)
        return count(key)
    }

    private mutating func startWindowIfDue(_ now: UInt64) {
        guard windowStart.map({ now &- $0 >= window }) ?? true else { return }
        windowStart = now
        written = 0
    }

    private mutating func count(_ key: Key) -> UInt64? {
        let first = counted.isEmpty
        counted[key, default: 0] += 1
        return first ? windowStart! &+ window : nil
    }

    /// The counts since the last summary, emptied; nil when nothing was counted.
    mutating func takeSummary() -> [Key: Int]? {
        guard !counted.isEmpty else { return nil }
        defer { counted = [:] }
        return counted
    }
}
