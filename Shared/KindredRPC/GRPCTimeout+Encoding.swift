extension GRPCTimeout {
    /// Formats a positive duration for the `grpc-timeout` header: at most 8 digits in the finest
    /// unit that holds it, rounded up so that a short remaining deadline never reads as zero.
    static func encode(_ duration: Duration) -> String {
        let nanoseconds = max(1, duration.nanoseconds)
        let units: [(divisor: UInt64, suffix: String)] = [
            (1, "n"), (1_000, "u"), (1_000_000, "m"), (1_000_000_000, "S"), (60_000_000_000, "M"),
            (3_600_000_000_000, "H"),
        ]
        for unit in units {
            let amount = (nanoseconds + unit.divisor - 1) / unit.divisor
            if amount < 100_000_000 { return "\(amount)\(unit.suffix)" }
        }
        return "99999999H"
    }
}
