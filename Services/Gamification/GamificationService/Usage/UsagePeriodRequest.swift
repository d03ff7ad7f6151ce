import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredRPC

/// A calendar period a request asks about: a day, a Monday-to-Sunday week or a month, holding `day` (as
/// PostgreSQL text, YYYY-MM-DD) or, when nil, today in the zone of whoever's calendar it is.
struct UsagePeriodRequest: Sendable, Equatable {
    /// PostgreSQL's `date_trunc` unit: day, week or month.
    let unit: String
    let day: String?

    /// The period of `period` and `date` (absent: today), recording bad fields in `violations`.
    init(
        _ period: Kindred_Gamification_V1_UsagePeriod, date: DateComponents?,
        _ violations: inout FieldViolations
    ) {
        switch period {
        case .day: unit = "day"
        case .week: unit = "week"
        case .month: unit = "month"
        case .unspecified, .unrecognized:
            unit = "day"
            violations.add("period", "must be DAY, WEEK or MONTH")
        }
        guard let date else {
            day = nil
            return
        }
        day = Self.text(of: date)
        if day == nil { violations.add("date", "must be a real calendar date between 2000 and 2100") }
    }

    /// `date` as YYYY-MM-DD; nil for a date that does not exist or lies outside 2000...2100.
    private static func text(of date: DateComponents) -> String? {
        let (year, month, day) = (date.year ?? 0, date.month ?? 0, date.day ?? 0)
        guard (2000...2100).contains(year), (1...12).contains(month) else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else { return nil }
        func padded(_ value: Int, _ width: Int) -> String {
            String(repeating: "0", count: max(0, width - String(value).count)) + String(value)
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    /// The date PostgreSQL's `date::text` wrote (YYYY-MM-DD) as a proto date.
    static func proto(_ text: String) -> DateComponents {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return DateComponents() }
        return DateComponents(year: parts[0], month: parts[1], day: parts[2])
    }
}
