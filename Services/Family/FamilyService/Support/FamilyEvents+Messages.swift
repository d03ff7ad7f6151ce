import KindredAuth
import KindredEvents
public import KindredHandlers
import KindredMessages
import KindredPostgres

/// Family's events as the outbox stores them: a row holds a serialized `Event` with only its payload;
/// `WatchEvents` adds the cursor, the type and the time as it serves it (`EventFeed.serveWatch`).
extension FamilyEvents {
    /// Appends `payload` inside `tx`, the transaction of the change it describes, sealed under `cipher`.
    static func append(
        _ payload: Kindred_Family_V1_Event.OneOf_Payload, sealedWith cipher: FieldCipher,
        in tx: PostgresTransaction
    ) async throws {
        tx.queryAtCommit(try insert(payload, sealedWith: cipher))
    }
}

extension Kindred_Family_V1_Event: WatchedEvent {}

extension Kindred_Family_V1_Event.OneOf_Payload {
    /// The event's name on the stream.
    var type: String {
        switch self {
        case .approvalDecided: "approval.decided"
        case .parentalControlsChanged: "parental_controls.changed"
        case .calendarRsvpChanged: "calendar.rsvp_changed"
        case .registryPurchased: "registry.purchased"
        case .commentAdded: "comment.added"
        case .registryPurchaseUndone: "registry.purchase_undone"
        case .photoSquished: "photo.squished"
        case .photoUnsquished: "photo.unsquished"
        case .babyArrived: "baby.arrived"
        case .babyProfilePurged: "baby_profile.purged"
        }
    }
}
