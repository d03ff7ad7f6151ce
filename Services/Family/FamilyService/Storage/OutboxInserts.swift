import KindredAuth
import KindredEvents
import KindredMessages
import KindredPostgres

/// The INSERTs that append to family's two outboxes, for statements that write a change and its events together
/// (`BabyActivityStore.record`); each must run in the transaction of that change.
extension FamilyEvents {
    /// Appends `payload` to `family.event_outbox`, sealed under `cipher`.
    static func insert(_ payload: Kindred_Family_V1_Event.OneOf_Payload, sealedWith cipher: FieldCipher)
        throws -> PostgresQuery
    {
        outbox.insert(
            type: payload.type, payload: try Kindred_Family_V1_Event(payload: payload).serializedBytes(),
            sealedWith: cipher)
    }
}

extension BabyActivityFeed {
    /// Appends `activity` to `family.baby_activity_feed`, sealed under `cipher`.
    static func insert(_ activity: Kindred_Family_V1_BabyActivity, sealedWith cipher: FieldCipher) throws
        -> PostgresQuery
    {
        outbox.insert(type: "baby.activity", payload: try activity.serializedBytes(), sealedWith: cipher)
    }
}
