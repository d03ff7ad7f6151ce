import KindredHandlers

/// The facts of a birth an announcement gives (the date, and the time, weight and length when given) as the
/// one record `BabySeals` seals per arrival: they are written and read together, never compared in SQL, so
/// one sealed value costs one nonce and one tag, not four.
struct ArrivalBirth: Sendable, Equatable {
    var date: BabyBirthDate
    /// "HH:MM", the parents' wall clock.
    var time: String?
    var weightGrams: Int?
    var lengthMM: Int?

    /// `YYYY-MM-DD|HH:MM|grams|mm`, an empty field for a detail not given. `ArrivalStore` makes the same text
    /// of a row's plaintext columns from before sealing began, so both forms are read by `init(record:)`.
    var record: String {
        [date.iso, time ?? "", weightGrams.map(String.init) ?? "", lengthMM.map(String.init) ?? ""]
            .joined(separator: "|")
    }

    init(date: BabyBirthDate, time: String?, weightGrams: Int?, lengthMM: Int?) {
        (self.date, self.time, self.weightGrams, self.lengthMM) = (date, time, weightGrams, lengthMM)
    }

    /// The facts `record` holds; nil when it is not one.
    init?(record: String) {
        let fields = record.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 4, let date = BabyBirthDate(iso: fields[0]) else { return nil }
        self.init(
            date: date, time: fields[1].isEmpty ? nil : fields[1], weightGrams: Int(fields[2]),
            lengthMM: Int(fields[3]))
    }
}

extension ArrivalDetails {
    /// The facts of the birth, as they are sealed.
    var birth: ArrivalBirth {
        ArrivalBirth(date: birthDate, time: birthTime, weightGrams: weightGrams, lengthMM: lengthMM)
    }
}
