import FoundationEssentials
import KindredMessages

/// The countdown a follower sees for a baby due soon.
enum BabyCountdown {
    /// Days shown at most: a profile appears from 10 days before its expected birth date.
    static let horizonDays = 10

    /// N = ceil(time from `now` to 00:00 UTC of the expected birth date, in days), and the countdown saying
    /// "less than N days"; nil unless 1 <= N <= 10.
    static func of(_ due: BabyHomeStore.Due, at now: Date) -> Kindred_Family_V1_BabyCountdown? {
        let days = Int((due.date.start.timeIntervalSince(now) / 86_400).rounded(.up))
        guard (1...horizonDays).contains(days) else { return nil }
        let name = BabyNames.profile(name: due.name, namesakeLastName: due.namesakeLastName)
        return Kindred_Family_V1_BabyCountdown(
            profileID: due.profile.description, profileName: name,
            expectedBirthDate: due.date.proto,
            daysLeft: Int32(days),
            message: "\(name) is arriving in less than \(days) \(days == 1 ? "day" : "days")!")
    }
}
