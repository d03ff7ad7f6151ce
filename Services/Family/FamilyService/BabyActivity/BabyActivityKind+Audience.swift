import KindredMessages

/// Who among a profile's members hears of an activity.
enum BabyAudience: Sendable {
    /// The parents: what their followers do.
    case owners
    /// Everyone on the profile: new content, which the co-owner hears of as much as the followers.
    case members

    /// The one role the audience is limited to; nil for every member.
    var role: BabyRole? {
        switch self {
        case .owners: .owner
        case .members: nil
        }
    }
}

/// Who hears of each kind of activity, and what they read: owners learn of everything (a new member, an
/// RSVP, a comment, a purchase and a squish, and the content their co-owner adds); followers of a new calendar
/// event, registry item and photo, and of the baby's arrival. The actor never hears of their own act, and
/// every recipient may switch a kind off (`NotificationSettings.muted_kinds`).
extension BabyActivityKind {
    /// The members to notify; nil for kinds nobody is notified of.
    var audience: BabyAudience? {
        switch self {
        case .memberJoined, .rsvpChanged, .commentAdded, .registryItemPurchased, .photoSquished,
            .arrivalSquished:
            .owners
        case .calendarEventAdded, .registryItemAdded, .photoAdded, .babyArrived: .members
        case .registryPurchaseUndone, .photoUnsquished: nil
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
        case .photoSquished, .arrivalSquished: .babySquish
        case .babyArrived: .babyArrived
        case .registryPurchaseUndone, .photoUnsquished: .unspecified
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
            case .photoSquished: "\(actor) squished a photo."
            case .photoUnsquished: "\(actor) took back a squish."
            case .arrivalSquished: "\(actor) squished the arrival announcement."
            case .babyArrived: "\(detail) has arrived!"
            case .photoAdded: detail.isEmpty ? "\(actor) added a photo." : "\(actor) added a photo: \(detail)"
            }
        return Notice(kind: notificationKind, title: profile, body: body)
    }

    /// The `WatchEvents` event of this kind, for gamification's activity counters; nil for kinds with none.
    func event(_ activity: Kindred_Family_V1_BabyActivity, rsvpAnswer: Kindred_Family_V1_RsvpAnswer)
        -> Kindred_Family_V1_Event.OneOf_Payload?
    {
        let occurred = Kindred_Family_V1_BabyActivityOccurred(
            profileID: activity.profileID, activityID: activity.activityID, actorID: activity.actorID,
            subjectID: activity.subjectID, occurredAt: activity.occurredAt, rsvpAnswer: rsvpAnswer)
        return switch self {
        case .rsvpChanged: .calendarRsvpChanged(occurred)
        case .registryItemPurchased: .registryPurchased(occurred)
        case .commentAdded: .commentAdded(occurred)
        case .registryPurchaseUndone: .registryPurchaseUndone(occurred)
        case .photoSquished: .photoSquished(occurred)
        case .photoUnsquished: .photoUnsquished(occurred)
        default: nil
        }
    }
}
