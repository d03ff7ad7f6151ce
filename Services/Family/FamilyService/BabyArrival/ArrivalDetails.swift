import FoundationEssentials
import KindredHandlers
import KindredMessages

/// What owners write of an arrival announcement, checked: the birth date, the name the profile takes (nil
/// leaves it), and the optional details.
struct ArrivalDetails: Sendable, Equatable {
    /// The heaviest and longest newborn the announcement accepts, as a guard against unit mistakes.
    static let maximumWeightGrams = 10_000
    static let maximumLengthMM = 1_000
    static let maximumMessageLength = 1_000
    /// A birth date is "today" somewhere until UTC+14 has left it.
    static let latestOffset: TimeInterval = 14 * 3_600

    var name: String?
    var birthDate: BabyBirthDate
    /// "HH:MM", the parents' wall clock.
    var birthTime: String?
    var weightGrams: Int?
    var lengthMM: Int?
    var photo: PhotoID?
    var message: String

    /// The details of `proto` (field paths under `field`), each bad one recorded in `violations`; nil then.
    init?(
        _ proto: Kindred_Family_V1_BabyArrival?, field: String, now: Date, _ violations: inout FieldViolations
    ) {
        let proto = proto ?? .init()
        let name = BabyProfileDraft.name(proto.name, field: "\(field).name", &violations)
        let date = proto.birthDate.flatMap(BabyBirthDate.init)
        if proto.birthDate == nil {
            violations.add("\(field).birth_date", "is required")
        } else if date == nil {
            violations.add("\(field).birth_date", "is not a real date from 1900 on")
        } else if let date, date.start > now.addingTimeInterval(Self.latestOffset) {
            violations.add("\(field).birth_date", "must not be in the future")
        }
        var time: String?
        if let given = proto.birthTime {
            if (0...23).contains(given.hours), (0...59).contains(given.minutes) {
                time = Self.clock(hours: Int(given.hours), minutes: Int(given.minutes))
            } else {
                violations.add("\(field).birth_time", "must be a time of day, 00:00 to 23:59")
            }
        }
        let weight = Self.measure(
            proto.weightGrams, limit: Self.maximumWeightGrams, field: "\(field).weight_grams", &violations)
        let length = Self.measure(
            proto.lengthMm, limit: Self.maximumLengthMM, field: "\(field).length_mm", &violations)
        let photo: PhotoID? =
            proto.photoID.isEmpty ? nil : violations.id("\(field).photo_id", proto.photoID)
        let message = ContentText.trimmed(proto.message)
        violations.add(
            "\(field).message",
            ContentText.problem(message, limit: Self.maximumMessageLength, required: false, newlines: true))
        guard let date, violations.error == nil else { return nil }
        self.init(
            name: name.map(ContentText.trimmed), birthDate: date, birthTime: time, weightGrams: weight,
            lengthMM: length, photo: photo, message: message)
    }

    init(
        name: String?, birthDate: BabyBirthDate, birthTime: String?, weightGrams: Int?, lengthMM: Int?,
        photo: PhotoID?, message: String
    ) {
        (self.name, self.birthDate, self.birthTime) = (name, birthDate, birthTime)
        (self.weightGrams, self.lengthMM, self.photo, self.message) = (weightGrams, lengthMM, photo, message)
    }

    /// "HH:MM".
    static func clock(hours: Int, minutes: Int) -> String {
        (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes < 10 ? "0" : "") + String(minutes)
    }

    /// nil for 0 (not given); a violation outside 1...limit.
    private static func measure(
        _ value: Int32, limit: Int, field: String, _ violations: inout FieldViolations
    )
        -> Int?
    {
        guard value != 0 else { return nil }
        guard (1...limit).contains(Int(value)) else {
            violations.add(field, "must be between 1 and \(limit), or 0 when not given")
            return nil
        }
        return Int(value)
    }
}
