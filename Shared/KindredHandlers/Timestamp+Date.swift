public import FoundationEssentials
public import KindredMessages

extension Kindred_Common_V1_Timestamp {
    /// The instant, to the microsecond PostgreSQL keeps.
    public init(_ date: Date) {
        let microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let (seconds, remainder) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        let borrow = remainder < 0 ? 1 : 0
        self.init(
            seconds: seconds - Int64(borrow), nanos: Int32((remainder + Int64(borrow) * 1_000_000) * 1_000))
    }

    /// The instant this timestamp names.
    public var date: Date {
        Date(timeIntervalSince1970: Double(seconds) + Double(nanos) / 1_000_000_000)
    }
}
