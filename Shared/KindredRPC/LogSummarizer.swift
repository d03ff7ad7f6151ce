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
        if windowStart.map({ now &- $0 >= window }) ?? true {
            windowStart = now
            written = 0
        }
        guard written >= linesPerWindow else {
            written += 1
            return .write
        }
        let first = counted.isEmpty
        counted[key, default: 0] += 1
        return .count(armSummaryAt: first ? windowStart! &+ window : nil)
    }

    /// The counts since the last summary, emptied; nil when nothing was counted.
    mutating func takeSummary() -> [Key: Int]? {
        guard !counted.isEmpty else { return nil }
        defer { counted = [:] }
        return counted
    }
}
