import KindredHandlers
import KindredMessages
import KindredPostgres
import Logging

/// The activity counters' part of family's events: an RSVP, a purchase, a squish or a comment counts for the
/// member who made it, and an RSVP away from attending, an undone purchase or an unsquish takes it back.
/// Each family activity is applied once, by its id: a replayed event changes nothing.
struct FamilyEventCounters: Sendable {
    /// The name family's activities are keyed under in `activity_events_applied`.
    static let source = "family"

    let logger: Logger

    /// What `payload` does to the counters: the activity, and the change it makes; nil for other events.
    private static func change(_ payload: Kindred_Family_V1_Event.OneOf_Payload?)
        -> (Kindred_Family_V1_BabyActivityOccurred, Change)?
    {
        switch payload {
        case .calendarRsvpChanged(let rsvp):
            (rsvp, rsvp.rsvpAnswer == .attending ? .count(.attended) : .uncountMine(.attended))
        case .registryPurchased(let purchase): (purchase, .count(.purchased))
        // An owner may undo a follower's purchase: it is the buyer's count that goes back.
        case .registryPurchaseUndone(let undone): (undone, .uncountAnyones(.purchased))
        case .photoSquished(let squish): (squish, .count(.squished))
        case .photoUnsquished(let unsquish): (unsquish, .uncountMine(.squished))
        case .commentAdded(let comment): (comment, .count(.commented))
        default: nil
        }
    }

    private enum Change {
        /// The actor's count goes up, unless the subject is counted for them already.
        case count(ActivityCounterStore.Counter)
        /// The subject stops counting for the actor.
        case uncountMine(ActivityCounterStore.Counter)
        /// The subject stops counting for whoever it counted for.
        case uncountAnyones(ActivityCounterStore.Counter)
    }

    /// Applies `event` with `tx`'s commit (the consumer's, which also moves its cursor); other events change
    /// nothing.
    func apply(_ event: Kindred_Family_V1_Event, in tx: PostgresTransaction) {
        guard let (activity, change) = Self.change(event.payload) else { return }
        guard let actor = UserID(activity.actorID), !activity.activityID.isEmpty, !activity.subjectID.isEmpty
        else {
            // It would fail the same way every time and hold the consumer there.
            logger.error(
                "family event lacks its actor, activity or subject; not counted",
                metadata: ["cursor": "\(event.cursor)", "type": "\(event.type)"])
            return
        }
        let applied = ActivityCounterStore.Activity(source: Self.source, id: activity.activityID)
        switch change {
        case .count(let counter):
            ActivityCounterStore.count(counter, activity.subjectID, for: actor, as: applied, in: tx)
        case .uncountMine(let counter):
            ActivityCounterStore.uncount(counter, activity.subjectID, for: actor, as: applied, in: tx)
        case .uncountAnyones(let counter):
            ActivityCounterStore.uncount(counter, activity.subjectID, for: nil, as: applied, in: tx)
        }
    }
}
