import KindredRPC

/// The refusals of guardian approvals and of `WatchEvents`.
extension FamilyError {
    /// No such request, or one the caller may not know exists: it is neither their own, nor of a minor they
    /// guard, nor are they a service.
    static let approvalNotFound = refusal(
        .notFound, "APPROVAL_NOT_FOUND", "There is no such approval request.")

    /// Somebody other than the minor (or a service acting for them) asked for an approval in the minor's name.
    static let approvalNotYours = refusal(
        .permissionDenied, "APPROVAL_NOT_YOURS",
        "Only the minor, or a service acting for them, may ask their guardians for an approval.")

    /// An adult asked for an approval for themselves: nobody decides for them.
    static let notAMinor = refusal(
        .failedPrecondition, "NOT_A_MINOR", "Only a minor asks a guardian for approval.")

    /// The minor has no guardian, so nobody could ever decide the request.
    static let noGuardian = refusal(
        .failedPrecondition, "NO_GUARDIAN",
        "No guardian is linked to this account yet, so there is nobody to ask. Link a guardian first.")

    /// The minor, or a service, tried to decide: only a guardian of the minor may.
    static let onlyGuardianMayDecide = refusal(
        .permissionDenied, "ONLY_GUARDIAN_MAY_DECIDE", "Only a guardian of the minor may decide this request."
    )

    /// The request was decided already, otherwise or by another guardian.
    static let approvalAlreadyDecided = refusal(
        .failedPrecondition, "APPROVAL_ALREADY_DECIDED", "This approval request has already been decided.")
}
