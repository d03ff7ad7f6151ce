import KindredMetrics
import Logging

/// The one line every server call leaves when it ends: method, status, reason, duration, peer and request
/// id, and the cause of an error. Never the request's metadata (its token) nor a message body.
enum AccessLog {
    /// Ordinary answers, the caller's mistakes included, are `info`, which an operator turns down with the
    /// log level; a fault of the server (INTERNAL, UNKNOWN, DATA_LOSS) is `error`, the cause beside it.
    static func level(of code: StatusCode) -> Logger.Level {
        switch code {
        case .internal, .unknown, .dataLoss: .error
        default: .info
        }
    }

    /// Writes the line, building it only when `logger` lets its level through.
    static func record(
        to logger: Logger, method: String, code: StatusCode, details: [ErrorDetail], cause: (any Error)?,
        durationNanos: UInt64, peer: String, requestID: @autoclosure () -> String, trace: TraceContext
    ) {
        let level = level(of: code)
        guard logger.logLevel <= level else { return }
        var fields: Logger.Metadata = [
            "rpc": .string(method), "status": .string(code.description), "peer": .string(peer),
            "request-id": .string(requestID()), "duration_ms": .string(milliseconds(durationNanos)),
            "trace_id": .string(trace.traceID), "span_id": .string(trace.spanIDText),
        ]
        if let reason = details.errorInfoReason { fields["reason"] = .string(reason) }
        if let cause { fields["cause"] = .string(String(reflecting: cause)) }
        logger.log(level: level, "call", metadata: fields)
    }

    /// Nanoseconds as milliseconds with three decimals (microseconds), without Foundation's formatters.
    static func milliseconds(_ nanos: UInt64) -> String {
        let micros = nanos / 1_000
        let fraction = String(micros % 1_000)
        return "\(micros / 1_000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

extension ServerCall {
    /// Records how the call ended, in the metrics and the access log; called once, where its status is
    /// decided or its stream is lost.
    func logAccess(_ code: StatusCode, details: [ErrorDetail] = [], cause: (any Error)? = nil) {
        let duration = monotonicNanos() &- startedAt
        metrics.record(code, nanoseconds: duration)
        AccessLog.record(
            to: core.logger, method: head.path ?? "", code: code, details: details, cause: cause,
            durationNanos: duration, peer: connection.peer, requestID: requestID, trace: trace)
    }
}
