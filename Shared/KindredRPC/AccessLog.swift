import KindredMetrics
import Logging
import Synchronization

/// One server's access log: the one line every call leaves when it ends (see `AccessLine`), at the level of
/// whose fault the ending was (`CallEnding`), except probes (counted in the metrics only, unless
/// `AccessLogSettings.logsProbes`) and the noisy endings past a connection's budget (counted, summarized).
final class AccessLog: Sendable {
    let logger: Logger
    let settings: AccessLogSettings
    /// The handler's own writer of access lines, when it has one: no metadata dictionary per call.
    private let handler: (any AccessLineHandler)?
    /// Lines counted instead of written, by `CallEnding`.
    let summarized = AtomicCounters(count: CallEnding.allCases.count)
    /// Streams the client reset in the read that opened them: nothing ran and no line was written.
    let resetsBeforeStart = AtomicCounters(count: 1)
    /// Refused connections (TLS, floods) across the server's loops: a few a second, the rest summarized.
    let refusals: Mutex<LogSummarizer<RefusalKey>>

    init(logger: Logger, settings: AccessLogSettings) {
        self.logger = logger
        self.settings = settings
        handler = logger.handler as? any AccessLineHandler
        refusals = Mutex(
            LogSummarizer(linesPerWindow: settings.noisyLinesPerWindow, window: settings.summaryWindow))
    }

    func isEnabled(at level: Logger.Level) -> Bool { logger.logLevel <= level }

    func write(_ line: AccessLine) {
        if let handler {
            handler.write(line)
        } else {
            logger.log(level: line.level, "call", metadata: line.metadata)
        }
    }

    /// The counts of lines not written, as Prometheus lines.
    func collectMetrics(into text: inout PrometheusText) {
        text.family(
            "kindred_rpc_access_lines_summarized_total", .counter,
            help:
                "Access lines of reset, refused and malformed calls counted in a summary instead of written.")
        for ending in CallEnding.allCases where ending.isNoisy {
            text.sample(
                "kindred_rpc_access_lines_summarized_total", ["ending": ending.name],
                Double(summarized.load(ending.rawValue)))
        }
        text.family(
            "kindred_rpc_streams_reset_before_start_total", .counter,
            help:
                "Streams the client reset in the read that opened them: nothing ran, no access line was written."
        )
        text.sample("kindred_rpc_streams_reset_before_start_total", [:], Double(resetsBeforeStart.load(0)))
    }
}

extension ServerCall {
    /// Records how the call ended, in the metrics and the access log; called once, where its status is
    /// decided or its stream is lost (`clientLeft`).
    func logAccess(
        _ code: StatusCode, details: [ErrorDetail] = [], cause: (any Error)? = nil, clientLeft: Bool = false
    ) {
        let duration = monotonicNanos() &- startedAt
        metrics.record(code, nanoseconds: duration)
        let log = core.accessLog
        if route?.isProbe == true && !log.settings.logsProbes { return }
        let ending = CallEnding(code: code, cause: cause, handlerStarted: task != nil, clientLeft: clientLeft)
        guard log.isEnabled(at: ending.level) else { return }
        if ending.isNoisy && !connection.admitCallLine(ending, code) { return }
        let requestID: AccessLine.RequestID =
            if let given = head.metadata["x-request-id"] {
                .given(given)
            } else {
                .generated(prefix: core.requestIDPrefix, loop: loop.index, number: requestNumber)
            }
        log.write(
            AccessLine(
                level: ending.level, method: head.path ?? "", code: code, reason: details.errorInfoReason,
                cause: cause, durationNanos: duration, peer: connection.peer, requestID: requestID,
                trace: trace))
    }
}
