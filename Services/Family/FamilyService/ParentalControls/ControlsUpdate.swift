import KindredHandlers
import KindredMessages
import KindredRPC

/// An `UpdateParentalControlsRequest` whose fields were checked: the minor's id, the toggles `update_mask`
/// names, their new values, and the guardian session the change needs (checked against the minor's sessions,
/// later).
struct ControlsUpdate: Sendable {
    let minorID: UserID
    let session: String
    let toggles: [ControlToggle]
    let changes: Kindred_Family_V1_ParentalControls

    /// The update `request` asks for, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Family_V1_UpdateParentalControlsRequest) throws(RPCError) {
        var violations = FieldViolations()
        let minorID: UserID? = violations.id("minor_user_id", request.minorUserID)
        toggles = ControlToggle.parse(request.updateMask, into: &violations)
        if request.controls == nil { violations.add("controls", "is required") }
        self.minorID = try violations.throwIfAny(minorID)
        session = request.guardianSession
        changes = request.controls ?? Kindred_Family_V1_ParentalControls()
    }
}
