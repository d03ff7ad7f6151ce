import KindredHandlers
import KindredRPC

/// The refusals of a baby profile's calendar, comments and registry.
extension FamilyError {
    /// An owner asked for what only followers do (RSVP, buy a registry item).
    static let babyProfileFollowersOnly = refusal(
        .permissionDenied, "BABY_PROFILE_FOLLOWERS_ONLY", "Only the baby's followers can do this.")

    /// No such event on the profile.
    static let calendarEventNotFound = refusal(
        .notFound, "CALENDAR_EVENT_NOT_FOUND", "This event does not exist or was deleted.")

    /// What a comment names is not on the profile: no such event, photo or announcement.
    static let commentTargetNotFound = refusal(
        .notFound, "COMMENT_TARGET_NOT_FOUND", "What you are commenting on does not exist or was deleted.")

    /// No such comment on the profile.
    static let commentNotFound = refusal(
        .notFound, "COMMENT_NOT_FOUND", "This comment does not exist or was deleted.")

    /// A follower tried to delete someone else's comment.
    static let commentNotYours = refusal(
        .permissionDenied, "COMMENT_NOT_YOURS",
        "Only the person who wrote this comment or the baby's parents can delete it.")

    /// No such item in the profile's registry.
    static let registryItemNotFound = refusal(
        .notFound, "REGISTRY_ITEM_NOT_FOUND", "This registry item does not exist or was deleted.")

    /// The registry holds its 500 items.
    static let registryFull = refusal(
        .resourceExhausted, "REGISTRY_FULL",
        "The registry is full at \(BabyRegistry.maximumItems) items. Delete an item to add another.")

    /// Someone else bought the item first: `buyer` (their display name, when they have one) says who.
    static func alreadyPurchased(by buyer: UserID, named name: String) -> RPCError {
        let who = name.isEmpty ? "someone else" : name
        return refusal(
            .failedPrecondition, "ALREADY_PURCHASED", "This item was already bought by \(who).",
            metadata: ["purchased_by_user_id": buyer.description, "purchased_by_display_name": name])
    }

    /// A follower tried to undo a purchase someone else made.
    static let purchaseNotYours = refusal(
        .permissionDenied, "REGISTRY_PURCHASE_NOT_YOURS",
        "Only the person who bought this item or the baby's parents can undo the purchase.")

    /// The caller used this request_id for different content.
    static let contentRequestIDReused = refusal(
        .invalidArgument, "REQUEST_ID_REUSED",
        "This request_id was already used for something else; use a new one.")
}
