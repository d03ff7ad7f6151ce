import KindredHandlers
import KindredMessages
import KindredRPC

/// A `SetGuardianPinRequest` whose fields were checked: the minor's id, a new PIN that passed
/// `GuardianPinRules.checkNewPin` (typed the same twice, not too simple), and the guardian session that a
/// change of a PIN already set needs (its token is checked against the minor's sessions, later).
struct NewGuardianPin: Sendable, Equatable {
    let minorID: UserID
    let pin: String
    let session: String

    /// The draft `request` holds; INVALID_ARGUMENT naming every malformed field, then the new PIN's own
    /// refusals (`PIN_MISMATCH`, `PIN_TOO_SIMPLE`).
    init(_ request: Kindred_Family_V1_SetGuardianPinRequest) throws(RPCError) {
        var violations = FieldViolations()
        let minorID: UserID? = violations.id("minor_user_id", request.minorUserID)
        try GuardianPinRules.checkNewPin(
            request.pin, confirmation: request.pinConfirmation, violations: violations)
        self.minorID = try violations.throwIfAny(minorID)
        pin = request.pin
        session = request.guardianSession
    }
}
