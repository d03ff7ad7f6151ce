import KindredMessages

/// Who hears of each kind of activity, and what they read: owners learn of a new member, an RSVP, a comment
/// and a purchase; followers of a new calendar event, registry item and photo. The actor never hears of their
/// own act, and every recipient may switch a kind off (`NotificationSettings.muted_kinds`).
extension BabyActivityKind {
    /// The members to notify; nil for kinds nobody is notified of.
    var audience: BabyRole? {
        switch self {
        case .memberJoined, .rsvpChanged, .commentAdded, .registryItemPurchased: .owner
        case .calendarEventAdded, .registryItemAdded, .photoAdded: .follower
        case .registryPurchaseUndone, .photoSquished, .babyArrived: nil
        }
    }

    /// The notification kind a recipient can switch off.
    var notificationKind: Kindred_Family_V1_NotificationKind {
        switch self {
        case .memberJoined: .babyMemberJoined
        case .rsvpChanged: .babyRsvp
        case .commentAdded: .babyComment
        case .registryItemPurchased: .babyPurchase
        case .calendarEventAdded: .babyCalendarEvent
        case .registryItemAdded: .babyRegistryItem
        case .photoAdded: .babyPhoto
        case .registryPurchaseUndone, .photoSquished, .babyArrived: .unspecified
        }
    }

    /// The notice a recipient reads: the profile's name as its title, what happened as its body.
    func notice(actor: String, profile: String, detail: String) -> Notice {
        let body =
            switch self {
            case .memberJoined: "\(actor) joined \(profile)'s family."
            case .rsvpChanged: "\(actor) answered the invitation to \(detail)."
            case .commentAdded: "\(actor) commented: \(detail)"
            case .registryItemPurchased: "\(actor) bought \(detail) from the registry."
            case .calendarEventAdded: "New on the calendar: \(detail)"
            case .registryItemAdded: "New in the registry: \(detail)"
            case .registryPurchaseUndone: "\(actor) put \(detail) back on the registry."
            case .photoAdded: detail.isEmpty ? "\(actor) added a photo." : "\(actor) added a photo: \(detail)"
            case .photoSquished, .babyArrived: "\(actor) shared something new."
            }
        return Notice(kind: notificationKind, title: profile, body: body)
    }

    /// The `WatchEvents` event of this kind, for gamification's activity counters; nil for kinds with none.
    func event(_ activity: Kindred_Family_V1_BabyActivity) -> Kindred_Family_V1_Event.OneOf_Payload? {
        let occurred = Kindred_Family_V1_BabyActivityOccurred(
            profileID: activity.profileID, activityID: activity.activityID, actorID: activity.actorID,
            subjectID: activity.subjectID, occurredAt: activity.occurredAt)
        return switch self {
        case .rsvpChanged: .calendarRsvpChanged(occurred)
        case .registryItemPurchased: .registryPurchased(occurred)
        case .commentAdded: .commentAdded(occurred)
        case .registryPurchaseUndone: .registryPurchaseUndone(occurred)
        default: nil
        }
    }
}
