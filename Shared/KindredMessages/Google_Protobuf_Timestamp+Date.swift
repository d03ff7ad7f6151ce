public import FoundationEssentials

// Generated fields of type google.protobuf.Timestamp are `Date`s: the bridge converts through these two.
extension Google_Protobuf_Timestamp {
    /// The instant, to the microsecond: what PostgreSQL keeps, and about what a `Date` holds near today.
    public init(_ date: Date) {
        let time = date.timeIntervalSince1970
        guard let microseconds = Int64(exactly: (time * 1_000_000).rounded()) else {
            self.init(farFrom1970: time)
            return
        }
        let (seconds, remainder) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        let borrow = remainder < 0 ? 1 : 0
        self.init(
            seconds: seconds - Int64(borrow), nanos: Int32((remainder + Int64(borrow) * 1_000_000) * 1_000))
    }

    /// A time too far from 1970 for whole microseconds in an Int64 (±292,000 years), as a timestamp a client
    /// sent may name (protobuf's own range ends at year 9999, but the wire carries any int64): its whole
    /// seconds, clamped to what an Int64 holds, and what the Double still knows of the fraction. It traps on
    /// nothing, and what it makes converts back to the same `Date`.
    private init(farFrom1970 time: Double) {
        let whole = time.rounded(.down)
        guard let seconds = Int64(exactly: whole) else {
            self.init(seconds: whole < 0 ? .min : .max, nanos: 0)
            return
        }
        self.init(seconds: seconds, nanos: Int32(((time - whole) * 1_000_000_000).rounded(.down)))
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
