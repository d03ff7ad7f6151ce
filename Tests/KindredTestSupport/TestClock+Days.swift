public import Foundation

extension TestClock {
    /// An instant decades from any day the suite runs on. A test that searches a dump for a date, or whose
    /// dates sit days from its clock, stands here: no column the database's own clock writes (`now()`,
    /// `DEFAULT now()`) can then hold one of its dates, whatever the day of the run.
    public static let farFromToday = "2061-03-14T10:00:00Z"

    /// Midnight UTC starting the day `days` after the clock's day (before it when negative).
    public func midnight(_ days: Int) -> Date {
        Self.utc.date(byAdding: .day, value: days, to: Self.utc.startOfDay(for: now))!
    }

    /// The UTC day `days` after the clock's, as (year, month, day).
    public func day(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let parts = Self.utc.dateComponents([.year, .month, .day], from: midnight(days))
        return (parts.year!, parts.month!, parts.day!)
    }

    /// The UTC day `days` after the clock's as PostgreSQL prints a `date`: `YYYY-MM-DD`.
    public func isoDay(_ days: Int) -> String {
        let (year, month, day) = day(days)
        return "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
