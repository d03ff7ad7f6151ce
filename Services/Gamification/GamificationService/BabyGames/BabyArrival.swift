import FoundationEssentials
import KindredHandlers
import KindredMessages

/// What the owners announced with family's `baby.arrived`, as the reveal keeps it.
struct BabyArrival: Sendable, Equatable {
    let profile: BabyProfileID
    /// Nil when the announcement gave no valid date: the tallies are revealed, with no closest guesses.
    let birthDate: CalendarDate?
    let name: String
    /// Family's BabyGender number; 0 not said.
    let gender: Int
    let announcedAt: Date?

    /// The event's announcement; nil when it names no profile.
    init?(_ event: Kindred_Family_V1_BabyArrived) {
        guard let profile = BabyProfileID(event.profileID) else { return nil }
        self.init(
            profile: profile, birthDate: event.birthDate.flatMap(CalendarDate.init), name: event.name,
            gender: Int(event.gender.rawValue), announcedAt: event.announcedAt)
    }

    init(profile: BabyProfileID, birthDate: CalendarDate?, name: String, gender: Int, announcedAt: Date?) {
        self.profile = profile
        self.birthDate = birthDate
        self.name = name
        self.gender = gender
        self.announcedAt = announcedAt
    }

    var proto: Kindred_Gamification_V1_BabyArrival {
        Kindred_Gamification_V1_BabyArrival(
            birthDate: birthDate?.proto, name: name, gender: Int32(gender),
            announcedAt: announcedAt)
    }
}
