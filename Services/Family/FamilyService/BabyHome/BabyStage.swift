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
}

typealias BabyStage = Kindred_Family_V1_BabyStage
