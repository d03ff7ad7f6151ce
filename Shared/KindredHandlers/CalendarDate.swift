public import FoundationEssentials
public import KindredMessages

/// A day of the Gregorian calendar with no time zone (a baby's birth date, a guess of it), kept in PostgreSQL
/// as a `date` and read back as its `YYYY-MM-DD` text.
public struct CalendarDate: Sendable, Equatable {
    public let year: Int
    public let month: Int
    public let day: Int

    /// The date `proto` names when it is a real one from year 1900 on (no February 30th, no month 13, no part
    /// left out).
    public init?(_ proto: DateComponents) {
        let (year, month, day) = (proto.year ?? 0, proto.month ?? 0, proto.day ?? 0)
        guard (1900...9999).contains(year), (1...12).contains(month), (1...31).contains(day),
            let instant = Self.utc.date(from: DateComponents(year: year, month: month, day: day)),
            Self.utc.dateComponents([.year, .month, .day], from: instant)
                == DateComponents(year: year, month: month, day: day)
        else { return nil }
        (self.year, self.month, self.day) = (year, month, day)
    }

    /// The date in PostgreSQL's `date` text, `YYYY-MM-DD`.
    public init?(iso text: String) {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        self.init(DateComponents(year: parts[0], month: parts[1], day: parts[2]))
    }

    /// The first instant of the date in UTC.
    public var start: Date { Self.utc.date(from: DateComponents(year: year, month: month, day: day))! }

    /// `YYYY-MM-DD`, as the date is bound to SQL.
    public var iso: String {
        func padded(_ value: Int, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    /// The wire form.
    public var proto: DateComponents {
        DateComponents(year: year, month: month, day: day)
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()
}
