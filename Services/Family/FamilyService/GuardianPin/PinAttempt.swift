import KindredHandlers
import KindredMessages
import KindredRPC

/// A PIN typed to be checked, with the minor whose PIN it should be: `VerifyGuardianPin`'s fields, or
/// `EnterParentMode`'s `guardian_pin` proof. Only its shape is checked here; whether it is right, under the
/// PIN's lockout, is `GuardianPins`'.
struct PinAttempt: Sendable, Equatable {
    let minorID: UserID
    let pin: String

    /// The attempt in `minorUserID` and `pin`, or INVALID_ARGUMENT naming each malformed one.
    init(minorUserID: String, pin: String) throws(RPCError) {
        var violations = FieldViolations()
        let minorID: UserID? = violations.id("minor_user_id", minorUserID)
        if !GuardianPinRules.isWellFormed(pin) {
            violations.add("pin", "must be \(GuardianPinRules.length) digits")
        }
        self.minorID = try violations.throwIfAny(minorID)
        self.pin = pin
    }

    /// `VerifyGuardianPin`'s attempt.
    init(_ request: Kindred_Family_V1_VerifyGuardianPinRequest) throws(RPCError) {
        try self.init(minorUserID: request.minorUserID, pin: request.pin)
    }

    /// `EnterParentMode`'s, with a guardian PIN for proof.
    init(_ proof: Kindred_Family_V1_GuardianPinProof) throws(RPCError) {
        try self.init(minorUserID: proof.minorUserID, pin: proof.pin)
    }
}
