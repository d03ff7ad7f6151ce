import FoundationEssentials
import KindredHandlers
import KindredMessages

extension Kindred_Family_V1_BabyStage {
    /// The stage of a baby due in `daysUntilDue` days (negative once past), `monthsOld` whole months after
    /// the due date: the rule the proto's `BabyStage` states.
    static func of(daysUntilDue: Int, monthsOld: Int) -> Self {
        if daysUntilDue > 189 { return .trimester1 }
        if daysUntilDue > 91 { return .trimester2 }
        if daysUntilDue > 0 { return .trimester3 }
        if monthsOld <= 0 { return .newborn }
        return Self(rawValue: Self.month1.rawValue + Int32(min(monthsOld, 12)) - 1)
    }

    /// The stage of a baby due on `due`, on the UTC date of `now`: days from that date to `due`, and whole
    /// months since `due` as PostgreSQL's `age()` counts them (a month is whole once its day of the month is
    /// reached), 0 before it.
    static func of(due: BabyBirthDate, at now: Date) -> Self {
        let today = utc.dateComponents([.year, .month, .day], from: now)
        let (year, month, day) = (today.year!, today.month!, today.day!)
        let todayStart = utc.date(from: DateComponents(year: year, month: month, day: day))!
        let days = Int((due.start.timeIntervalSince(todayStart) / 86_400).rounded())
        let months = days > 0 ? 0 : (year - due.year) * 12 + (month - due.month) - (day < due.day ? 1 : 0)
        return of(daysUntilDue: days, monthsOld: months)
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()
}

typealias BabyStage = Kindred_Family_V1_BabyStage
