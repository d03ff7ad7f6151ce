import KindredRPC

extension FamilyError {
    /// A profile the caller may not see: the answer an id that names nothing gets, so that nobody learns a
    /// profile exists by asking for it.
    static let babyProfileNotFound = refusal(
        .notFound, "BABY_PROFILE_NOT_FOUND", "This baby profile does not exist or is not shared with you.")

    /// A follower asked for what only the profile's owners may do.
    static let babyProfileOwnersOnly = refusal(
        .permissionDenied, "BABY_PROFILE_OWNERS_ONLY", "Only the baby's parents can do this.")
}
