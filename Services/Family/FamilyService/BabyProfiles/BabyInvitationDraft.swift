import KindredHandlers
import KindredMessages
import KindredRPC

/// An `InviteToBabyProfileRequest` whose fields were checked: the idempotency key, the profile, an address
/// the mail outbox can deliver to, and the role the invitee gets.
struct BabyInvitationDraft: Sendable, Equatable {
    let requestID: String
    let profile: BabyProfileID
    let email: Email
    let role: BabyRole

    /// The draft `request` holds, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Family_V1_InviteToBabyProfileRequest) throws(RPCError) {
        var violations = FieldViolations()
        violations.add("request_id", Guardians.requestIDProblem(request.requestID))
        let profile: BabyProfileID? = violations.id("profile_id", request.profileID)
        let email = violations.email("email", request.email)
        let role = BabyRole(request.role)
        if role == nil { violations.add("role", "must be OWNER or FOLLOWER") }
        (self.profile, self.email, self.role) = try violations.throwIfAny(profile, email, role)
        requestID = request.requestID
    }

    /// Whether `invitation`, made earlier under this draft's request_id, is this draft sent before: a retry.
    func isRetry(of invitation: BabyInvitationStore.Invitation) -> Bool {
        email.matches(invitation.email) && invitation.role == role
    }
}
