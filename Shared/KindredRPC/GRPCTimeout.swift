/// The `grpc-timeout` header: 1–8 ASCII digits followed by a unit (H, M, S, m, u, n).
enum GRPCTimeout {
    /// Parses a header value; nil when it is malformed.
    static func parse(_ value: UnsafeBufferPointer<UInt8>) -> Duration? {
        guard value.count >= 2, value.count <= 9 else { return nil }
        var amount: Int64 = 0
        for byte in value.dropLast() {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            amount = amount * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        switch value[value.count - 1] {
        case UInt8(ascii: "H"): return .seconds(amount * 3600)
        case UInt8(ascii: "M"): return .seconds(amount * 60)
        case UInt8(ascii: "S"): return .seconds(amount)
        case UInt8(ascii: "m"): return .milliseconds(amount)
        case UInt8(ascii: "u"): return .microseconds(amount)
        case UInt8(ascii: "n"): return .nanoseconds(amount)
        default: return nil
        }
    }

    /// Parses a header value held in a string.
    static func parse(_ value: String) -> Duration? {
        var value = value
        return value.withUTF8 { parse($0) }
    }
}
