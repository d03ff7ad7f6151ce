public import KindredMetrics
public import Logging

/// What one call's access line says: method, status, reason, duration, peer, request id, the call's trace,
/// and the cause of an error. Never the request's metadata (its token) nor a message body. A log handler
/// that writes these itself (`AccessLineHandler`) skips swift-log's metadata dictionary; any other gets
/// `metadata`, the same fields.
public struct AccessLine: Sendable {
    public let level: Logger.Level
    /// The method's `:path`.
    public let method: String
    public let code: StatusCode
    /// The `ErrorInfo.reason` of the answer, if it has one.
    public let reason: String?
    /// What went wrong underneath, for the log only.
    public let cause: (any Error)?
    public let durationNanos: UInt64
    public let peer: String
    public let requestID: RequestID
    public let trace: TraceContext

    public init(
        level: Logger.Level, method: String, code: StatusCode, reason: String?, cause: (any Error)?,
        durationNanos: UInt64, peer: String, requestID: RequestID, trace: TraceContext
    ) {
        self.level = level
        self.method = method
        self.code = code
        self.reason = reason
        self.cause = cause
        self.durationNanos = durationNanos
        self.peer = peer
        self.requestID = requestID
        self.trace = trace
    }

    /// The client's `x-request-id`, or the server's own: a per-process prefix, the loop, the call's number.
    public enum RequestID: Sendable, Equatable {
        case given(String)
        case generated(prefix: String, loop: Int, number: UInt64)

        public var text: String {
            switch self {
            case .given(let text): text
            case .generated(let prefix, let loop, let number): "\(prefix)-\(loop)-\(number)"
            }
        }
    }

    /// The line's fields as swift-log metadata, for handlers that do not write access lines themselves.
    public var metadata: Logger.Metadata {
        var fields: Logger.Metadata = [
            "rpc": .string(method), "status": .string(code.description), "peer": .string(peer),
            "request-id": .string(requestID.text), "duration_ms": .string(Self.milliseconds(durationNanos)),
            "trace_id": .string(trace.traceID), "span_id": .string(trace.spanIDText),
        ]
        if let reason { fields["reason"] = .string(reason) }
        if let cause { fields["cause"] = .string(String(reflecting: cause)) }
        return fields
    }

    /// Nanoseconds as milliseconds with three decimals (microseconds), without Foundation's formatters.
    public static func milliseconds(_ nanos: UInt64) -> String {
        var out: [UInt8] = []
        appendMilliseconds(nanos, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `milliseconds(nanos)` appended as ASCII digits.
    public static func appendMilliseconds(_ nanos: UInt64, to out: inout [UInt8]) {
        let micros = nanos / 1_000
        appendDecimal(micros / 1_000, to: &out)
        out.append(UInt8(ascii: "."))
        let fraction = micros % 1_000
        out.append(UInt8(ascii: "0") + UInt8(fraction / 100))
        out.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        out.append(UInt8(ascii: "0") + UInt8(fraction % 10))
    }

    /// `value` in decimal digits.
    public static func appendDecimal(_ value: UInt64, to out: inout [UInt8]) {
        // Digits into a 20-byte stack buffer from the right, then appended at once: an append per digit is a
        // capacity check each, on every call's path.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = value
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// `value` as 16 lowercase hex digits.
    public static func appendHex(_ value: UInt64, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { digits in
            for index in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0xF
                digits[index] = nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ nibble &- 10
            }
            out.append(contentsOf: UnsafeBufferPointer(digits))
        }
    }
}

/// A log handler that writes access lines itself (the JSON handler, on every call's path), with the same
/// fields `AccessLine.metadata` gives any other handler.
public protocol AccessLineHandler: LogHandler {
    /// Writes `line` at its level (the server has checked the level already).
    func write(_ line: AccessLine)
}
