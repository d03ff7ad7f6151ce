import KindredAuth
import KindredMessages

/// How a date of birth becomes an age and an age band. Ages are counted on the UTC date; a birthday on
/// 29 February is reached on 1 March in common years (the day after 28 February), so nobody waits four years.
enum AgePolicy {
    /// No account below this age.
    static let minimumAge = 13
    /// The first year a date of birth may fall in.
    static let earliestBirthYear = 1900

    /// Completed years from `birth` to `today`: one more on each birthday, counted by (month, day), which
    /// puts a 29 February birthday on 1 March in a common year because (3, 1) comes after (2, 29).
    static func age(bornOn birth: CalendarDate, on today: CalendarDate) -> Int {
        let hadBirthday = (today.month, today.day) >= (birth.month, birth.day)
        return today.year - birth.year - (hadBirthday ? 0 : 1)
    }

    /// The band for an age; nil under 13, where no account may exist.
    static func band(forAge age: Int) -> TokenClaims.AgeBand? {
        switch age {
        case ..<minimumAge: nil
        case ..<16: .thirteenToFifteen
        case ..<18: .sixteenToSeventeen
        default: .adult
        }
    }

    /// The band of someone born on `birth`, on `today`; nil under 13.
    static func band(bornOn birth: CalendarDate, on today: CalendarDate) -> TokenClaims.AgeBand? {
        band(forAge: age(bornOn: birth, on: today))
    }
}

extension TokenClaims.AgeBand {
    /// Minors' accounts start with their guardians' parental controls on; adults' have none.
    var isMinor: Bool { self != .adult }

    /// Whether this band comes later in life than `other`: the only way the sweep moves anyone.
    func isOlder(than other: Self) -> Bool {
        Self.allCases.firstIndex(of: self)! > Self.allCases.firstIndex(of: other)!
    }

    /// The wire enum.
    var proto: Kindred_Identity_V1_AgeBand {
        switch self {
        case .thirteenToFifteen: .ageBand1315
        case .sixteenToSeventeen: .ageBand1617
        case .adult: .ageBand18Plus
        }
    }
}
