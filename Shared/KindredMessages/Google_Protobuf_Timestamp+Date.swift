public import FoundationEssentials

// Generated fields of type google.protobuf.Timestamp are `Date`s: the bridge converts through these two.
extension Google_Protobuf_Timestamp {
    /// The instant, to the microsecond: what PostgreSQL keeps, and about what a `Date` holds near today.
    public init(_ date: Date) {
        let microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let (seconds, remainder) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        let borrow = remainder < 0 ? 1 : 0
        self.init(
            seconds: seconds - Int64(borrow), nanos: Int32((remainder + Int64(borrow) * 1_000_000) * 1_000))
    }

    /// The instant this timestamp names. A whole number of microseconds becomes exactly the `Date` that
    /// `WallClock.now` and a PostgreSQL read give for it (microseconds over 1e6), so times compare equal.
    public var date: Date {
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        if nanos % 1_000 == 0, !overflow {
            let (microseconds, overflow) = scaled.addingReportingOverflow(Int64(nanos / 1_000))
            if !overflow { return Date(timeIntervalSince1970: Double(microseconds) / 1_000_000) }
        }
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanos) / 1_000_000_000)
    }
}
