import FoundationEssentials
import KindredMessages

/// The rules for the fields a person types: each check returns why a value is refused, or nil.
enum AccountFieldRules {
    /// 3–30 of `[A-Za-z0-9_]`.
    static func usernameProblem(_ username: String) -> String? {
        guard (3...30).contains(username.utf8.count) else { return "must be 3 to 30 characters" }
        guard username.utf8.allSatisfy(isUsernameByte) else { return "may hold only letters, digits and _" }
        return nil
    }

    static func isUsernameByte(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 95
    }

    /// A real calendar date, not after `today` and not before 1900. Being old enough is checked apart, since
    /// a refusal for age is FAILED_PRECONDITION, not a malformed field.
    static func dateOfBirth(
        _ date: DateComponents?, today: CalendarDate
    ) -> Result<CalendarDate, Problem> {
        guard let date else { return .failure(Problem("is required")) }
        guard let birth = CalendarDate(date) else {
            return .failure(
                Problem("\(date.year ?? 0)-\(date.month ?? 0)-\(date.day ?? 0) is not a calendar date"))
        }
        guard birth.year >= AgePolicy.earliestBirthYear else {
            return .failure(Problem("must not be before 1900"))
        }
        guard birth <= today else { return .failure(Problem("must not be in the future")) }
        return .success(birth)
    }

    /// Why a field is refused.
    struct Problem: Error {
        let description: String

        init(_ description: String) {
            self.description = description
        }
    }
}
