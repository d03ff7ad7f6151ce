import KindredRPC

/// The refusals of a baby profile's owners, followers and invitations.
extension FamilyError {
    /// A third owner: by invitation, or by accepting one.
    static let ownerLimitReached = refusal(
        .failedPrecondition, "OWNER_LIMIT_REACHED", "A baby profile can have at most two parents.",
        metadata: ["max_owners": "\(BabyProfiles.maximumOwners)"])

    /// The last owner asked to leave.
    static let soleOwner = refusal(
        .failedPrecondition, "SOLE_OWNER",
        "You are the only parent on this baby profile. Delete the profile instead of leaving it.")

    /// An owner named for removal: owners leave by themselves.
    static let cannotRemoveOwner = refusal(
        .failedPrecondition, "CANNOT_REMOVE_OWNER",
        "A parent cannot be removed from a baby profile. They can leave it themselves.")

    static let babyMemberNotFound = refusal(
        .notFound, "BABY_MEMBER_NOT_FOUND", "This person is not a member of this baby profile.")

    static let babyInvitationNotFound = refusal(
        .notFound, "BABY_INVITATION_NOT_FOUND", "This invitation does not exist.")

    static let babyInvitationUnknown = refusal(
        .notFound, "LINK_UNKNOWN",
        "This invitation link is not valid. Check that it was copied whole, or ask for a new one.")

    static let babyInvitationExpired = refusal(
        .failedPrecondition, "LINK_EXPIRED",
        "This invitation link has expired. Ask the baby's parents to send it again.")

    static let babyInvitationUsed = refusal(
        .failedPrecondition, "LINK_ALREADY_USED", "This invitation link has already been used.")

    static let babyInvitationRevoked = refusal(
        .failedPrecondition, "INVITATION_REVOKED", "This invitation was withdrawn by the baby's parents.")

    static let babyInvitationAccepted = refusal(
        .failedPrecondition, "INVITATION_ALREADY_ACCEPTED",
        "This invitation has already been accepted. Remove the member instead.")

    /// A forwarded link used by another account. The message must not say which address was invited.
    static let babyInvitationForAnotherAccount = refusal(
        .permissionDenied, "INVITATION_FOR_ANOTHER_ACCOUNT",
        "This invitation was sent to another email address. Ask the baby's parents to invite yours.")

    static let babyInvitationEmailNotVerified = refusal(
        .failedPrecondition, "EMAIL_NOT_VERIFIED",
        "Verify your email address, then open the invitation again.")
}
