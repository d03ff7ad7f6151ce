public import KindredRPC
import Logging

/// A call's access line straight to bytes: the fields of `AccessLine.metadata` without building it, so the
/// line costs the loop well under a microsecond (measured by `Tests/AccessLogBench`). The handler's own
/// metadata (the service's name) follows; the metadata provider is not asked, since the line names its
/// call's trace itself.
extension JSONLogHandler: AccessLineHandler {
    public func write(_ line: AccessLine) {
        var out: [UInt8] = []
        out.reserveCapacity(384)
        appendHead(level: line.level, to: &out)
        out.append(contentsOf: #""call""#.utf8)
        if let cause = line.cause {
            out.append(contentsOf: #","cause":"#.utf8)
            JSONText.appendQuoted(String(reflecting: cause), to: &out)
        }
        out.append(contentsOf: #","duration_ms":""#.utf8)
        AccessLine.appendMilliseconds(line.durationNanos, to: &out)
        out.append(contentsOf: #"","peer":"#.utf8)
        JSONText.appendQuoted(line.peer, to: &out)
        if let reason = line.reason {
            out.append(contentsOf: #","reason":"#.utf8)
            JSONText.appendQuoted(reason, to: &out)
        }
        out.append(contentsOf: #","request-id":"#.utf8)
        switch line.requestID {
        case .given(let text):
            JSONText.appendQuoted(text, to: &out)
        case .generated(let prefix, let loop, let number):
            JSONText.appendQuoted(prefix, to: &out)
            out.removeLast()  // the closing quote: the loop and the number follow inside the string
            out.append(UInt8(ascii: "-"))
            AccessLine.appendDecimal(UInt64(loop), to: &out)
            out.append(UInt8(ascii: "-"))
            AccessLine.appendDecimal(number, to: &out)
            out.append(UInt8(ascii: "\""))
        }
        out.append(contentsOf: #","rpc":"#.utf8)
        JSONText.appendQuoted(line.method, to: &out)
        out.append(contentsOf: #","span_id":""#.utf8)
        AccessLine.appendHex(line.trace.spanID, to: &out)
        out.append(contentsOf: #"","status":""#.utf8)
        out.append(contentsOf: line.code.description.utf8)
        out.append(contentsOf: #"","trace_id":""#.utf8)
        AccessLine.appendHex(line.trace.traceHigh, to: &out)
        AccessLine.appendHex(line.trace.traceLow, to: &out)
        out.append(UInt8(ascii: "\""))
        func appendField(_ key: String, _ value: Logger.Metadata.Value) {
            guard !Self.accessLineKeys.contains(key) else { return }
            out.append(UInt8(ascii: ","))
            JSONText.appendQuoted(key, to: &out)
            out.append(UInt8(ascii: ":"))
            JSONText.append(value, to: &out)
        }
        // The service's logger has one entry: no sort, no array, for the common case.
        if metadata.count <= 1 {
            for (key, value) in metadata { appendField(key, value) }
        } else {
            for (key, value) in metadata.sorted(by: { $0.key < $1.key }) { appendField(key, value) }
        }
        out.append(contentsOf: "}\n".utf8)
        writer.append(out)
    }

    private static let accessLineKeys: Set<String> = [
        "cause", "duration_ms", "peer", "reason", "request-id", "rpc", "span_id", "status", "trace_id",
    ]
}
