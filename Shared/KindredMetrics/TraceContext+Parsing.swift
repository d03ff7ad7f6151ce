extension TraceContext {
    /// Parses a `traceparent` header value; nil when it is malformed, so the receiver starts a new trace.
    ///
    /// Version 00 is exactly `00-<32 hex>-<16 hex>-<2 hex>`, lowercase, with neither id all zeros. A later
    /// version may append `-<more>`, which is ignored (the spec's forward compatibility); version ff is
    /// invalid.
    public init?(traceparent: String) {
        var text = traceparent
        guard let parsed = text.withUTF8({ Self.parse($0) }) else { return nil }
        self = parsed
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> TraceContext? {
        guard bytes.count >= 55, bytes[2] == dash, bytes[35] == dash, bytes[52] == dash,
            let version = number(bytes, 0, 2), version != 0xFF,
            let high = number(bytes, 3, 16), let low = number(bytes, 19, 16),
            let span = number(bytes, 36, 16), let flags = number(bytes, 53, 2),
            high != 0 || low != 0, span != 0
        else { return nil }
        if version == 0 {
            guard bytes.count == 55 else { return nil }
        } else if bytes.count > 55, bytes[55] != dash {
            return nil
        }
        return TraceContext(traceHigh: high, traceLow: low, spanID: span, flags: UInt8(flags))
    }

    private static let dash = UInt8(ascii: "-")

    /// `count` lowercase hex digits from `start`; nil for any other character.
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> UInt64? {
        var value: UInt64 = 0
        for byte in bytes[start..<start + count] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}
