import Logging

/// A connection's budget of access lines for the calls a client can end at will by the thousand (reset,
/// refused, malformed): a few a second are written, the rest counted and summarized in one line when the
/// second ends, or when the connection closes. A rapid reset once wrote 148,526 lines in 15 s.
extension Connection {
    /// Whether the line of a noisy call is written now; false when it is counted for the summary instead.
    func admitCallLine(_ ending: CallEnding, _ code: StatusCode) -> Bool {
        switch callLines.summarizer.admit(CallLineKey(ending: ending, code: code), now: loop.now) {
        case .write:
            return true
        case .count(let armSummaryAt):
            core.accessLog.summarized.add(ending.rawValue)
            if let armSummaryAt {
                let delay = Duration.nanoseconds(
                    Int64(bitPattern: armSummaryAt &- min(armSummaryAt, loop.now)))
                // Strong, like the connection's other timers (`perform(_:)`); `tearDown` writes the summary
                // and cancels it.
                callLines.timer = loop.schedule(after: delay) { [self] in
                    callLines.timer = nil
                    writeCallLineSummary()
                }
            }
            return false
        }
    }

    /// Writes the summary of the lines counted so far, if any (at the window's end, and at close).
    func writeCallLineSummary() {
        if let timer = callLines.timer { loop.cancel(timer) }
        callLines.timer = nil
        guard let counts = callLines.summarizer.takeSummary() else { return }
        core.logger.info(
            "access lines summarized", metadata: CallLineKey.summaryFields(counts, peer: peer))
    }
}

/// What one connection's noisy lines are counted by: the ending and the status.
struct CallLineKey: Hashable {
    let ending: CallEnding
    let code: StatusCode

    /// The summary's fields: the peer, the count of each ending, and of each status (`CANCELLED:1200`).
    static func summaryFields(_ counts: [CallLineKey: Int], peer: String) -> [String: Logger.MetadataValue] {
        var fields: [String: Logger.MetadataValue] = ["peer": .string(peer)]
        for ending in CallEnding.allCases {
            let total = counts.filter { $0.key.ending == ending }.values.reduce(0, +)
            if total > 0 { fields[ending.name] = .string(String(total)) }
        }
        var byStatus: [StatusCode: Int] = [:]
        for (key, count) in counts { byStatus[key.code, default: 0] += count }
        fields["statuses"] = .string(
            byStatus.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key):\($0.value)" }
                .joined(separator: ","))
        return fields
    }
}

/// A connection's noisy-line state: the counts, and the timer that writes their summary.
struct CallLineBudget {
    var summarizer: LogSummarizer<CallLineKey>
    var timer: LoopTimer?

    init(_ settings: AccessLogSettings) {
        summarizer = LogSummarizer(
            linesPerWindow: settings.noisyLinesPerWindow, window: settings.summaryWindow)
    }
}
