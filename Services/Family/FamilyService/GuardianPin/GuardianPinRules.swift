import KindredHandlers
import KindredRPC

/// What a new guardian PIN must be: four ASCII digits, typed the same twice, and not guessable at a glance
/// (one digit four times, or a straight run up or down such as 1234, 4321 or 9876).
enum GuardianPinRules {
    static let length = 4

    /// Whether `pin` is four ASCII digits: the only shape a PIN ever has, new or typed to be checked.
    static func isWellFormed(_ pin: String) -> Bool {
        pin.utf8.count == length && pin.utf8.allSatisfy { (48...57).contains($0) }
    }

    /// Whether `pin` (well formed) is one digit repeated or a straight run, up or down.
    static func isTooSimple(_ pin: String) -> Bool {
        let digits = pin.utf8.map { Int($0) - 48 }
        let steps = Set(zip(digits, digits.dropFirst()).map { $1 - $0 })
        return steps == [0] || steps == [1] || steps == [-1]
    }

    /// Checks a new PIN and its confirmation, in this order: the shape of both, with the request's other
    /// `violations` (one INVALID_ARGUMENT naming every bad field), that they match (`PIN_MISMATCH`), that it
    /// is not too simple (`PIN_TOO_SIMPLE`).
    static func checkNewPin(_ pin: String, confirmation: String, violations: FieldViolations) throws(RPCError)
    {
        var violations = violations
        if !isWellFormed(pin) { violations.add("pin", "must be \(length) digits") }
        if confirmation.isEmpty { violations.add("pin_confirmation", "is required") }
        try violations.throwIfAny()
        guard pin == confirmation else {
            throw FamilyError.invalidPin(
                "PIN_MISMATCH", field: "pin_confirmation",
                "The two PINs do not match. Type the same PIN twice.")
        }
        guard !isTooSimple(pin) else {
            throw FamilyError.invalidPin(
                "PIN_TOO_SIMPLE", field: "pin",
                "This PIN is too easy to guess. Avoid one digit repeated and runs like 1234 or 4321.")
        }
    }
}
