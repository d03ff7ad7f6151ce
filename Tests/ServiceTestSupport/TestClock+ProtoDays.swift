// Debug builds only (the services are testable there): see README.md.
#if DEBUG
import KindredMessages
import KindredTestSupport

extension TestClock {
    /// The UTC day `days` after the clock's, as the API carries a calendar date: a due date or a birth date
    /// that a rule measures from the clock.
    func date(_ days: Int) -> Kindred_Common_V1_Date {
        let (year, month, day) = day(days)
        return Kindred_Common_V1_Date(year: Int32(year), month: Int32(month), day: Int32(day))
    }
}
#endif
