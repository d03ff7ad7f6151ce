// Debug builds only (the services are testable there): see README.md.
#if DEBUG
import Foundation
import KindredMessages
import KindredTestSupport

extension TestClock {
    /// The UTC day `days` after the clock's, as the API carries a calendar date: a due date or a birth date
    /// that a rule measures from the clock.
    func date(_ days: Int) -> DateComponents {
        let (year, month, day) = day(days)
        return DateComponents(year: year, month: month, day: day)
    }
}
#endif
