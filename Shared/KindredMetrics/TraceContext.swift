/// A W3C Trace Context (`traceparent`, https://www.w3.org/TR/trace-context/): the trace a piece of work
/// belongs to and the span that is doing it. A service takes the caller's trace, gives its own work a new
/// span id, and sends that span as the parent of every call it makes.
public struct TraceContext: Sendable, Hashable {
    /// The 16-byte trace id as two big-endian halves; never all zero.
    public let traceHigh: UInt64
    public let traceLow: UInt64
    /// The 8-byte id of the current span; never zero.
    public let spanID: UInt64
    /// The trace flags (bit 0: the caller sampled the trace), passed on as received.
    public let flags: UInt8

    public init(traceHigh: UInt64, traceLow: UInt64, spanID: UInt64, flags: UInt8) {
        self.traceHigh = traceHigh
        self.traceLow = traceLow
        self.spanID = spanID
        self.flags = flags
    }

    /// A new trace with a new span: for work that no caller traced (a call without a valid `traceparent`,
    /// a consumer's batch).
    public static func start() -> TraceContext {
        var high = TraceIDs.next()
        let low = TraceIDs.next()
        if high == 0 && low == 0 { high = 1 }
        return TraceContext(traceHigh: high, traceLow: low, spanID: TraceIDs.nextSpan(), flags: 0)
    }

    /// The same trace with a new span id: the work of this hop.
    public func child() -> TraceContext {
        TraceContext(traceHigh: traceHigh, traceLow: traceLow, spanID: TraceIDs.nextSpan(), flags: flags)
    }

    /// The work that follows `traceparent` (a call's header, a consumed event's): a new span in its trace, or
    /// a new trace when there is none or it is malformed.
    public static func continuing(_ traceparent: String?) -> TraceContext {
        guard let traceparent, let parent = TraceContext(traceparent: traceparent) else { return .start() }
        return parent.child()
    }

    /// The trace id as 32 lowercase hex digits, as logs and tracing back ends show it.
    public var traceID: String { String(decoding: hex(traceHigh) + hex(traceLow), as: UTF8.self) }

    /// The span id as 16 lowercase hex digits.
    public var spanIDText: String { String(decoding: hex(spanID), as: UTF8.self) }

    /// The `traceparent` header value naming this span as the parent: `00-<trace>-<span>-<flags>`.
    public var traceparent: String {
        var out: [UInt8] = Array("00-".utf8)
        out.reserveCapacity(55)
        out += hex(traceHigh)
        out += hex(traceLow)
        out.append(UInt8(ascii: "-"))
        out += hex(spanID)
        out.append(UInt8(ascii: "-"))
        out += hex(UInt64(flags), digits: 2)
        return String(decoding: out, as: UTF8.self)
    }
}

func hex(_ value: UInt64, digits: Int = 16) -> [UInt8] {
    let alphabet = Array("0123456789abcdef".utf8)
    return (0..<digits).map {
        alphabet[Int(truncatingIfNeeded: value >> (4 * UInt64(digits - 1 - $0))) & 0xF]
    }
}
