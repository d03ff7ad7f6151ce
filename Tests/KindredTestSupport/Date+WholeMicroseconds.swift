public import Foundation

extension Date {
    /// This instant to the whole microsecond, the Date a service answers for it (PostgreSQL keeps microseconds,
    /// and a decoded Timestamp of whole microseconds is exactly this value): what a test compares an answer with.
    public var wholeMicroseconds: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 * 1_000_000).rounded() / 1_000_000)
    }
}
