/// What an entry of a baby profile's recent activity records; stored as `family.baby_activity.kind`.
enum BabyActivityKind: Int, Sendable, CaseIterable {
    /// Someone accepted an invitation (the subject is the new member's user id).
    case memberJoined = 1
    /// An owner added an event to the calendar.
    case calendarEventAdded = 2
    /// A member answered or changed their RSVP to an event.
    case rsvpChanged = 3
    /// A member commented (the subject is the comment).
    case commentAdded = 4
    /// An owner added an item to the registry.
    case registryItemAdded = 5
    /// A follower marked a registry item purchased.
    case registryItemPurchased = 6
    /// An owner added a photo to the gallery.
    case photoAdded = 7
    /// A member squished a photo.
    case photoSquished = 8
    /// The owners announced the baby's arrival.
    case babyArrived = 9
    /// The buyer or an owner took back a registry item's purchase: the item is unbought again.
    case registryPurchaseUndone = 10
    /// A member took their squish of a photo back (the subject is the photo).
    case photoUnsquished = 11
    /// A member squished the arrival announcement.
    case arrivalSquished = 12
}
