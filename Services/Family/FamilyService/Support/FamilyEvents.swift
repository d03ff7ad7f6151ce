import KindredEvents

/// The `family.event_outbox`: the events other services consume through `WatchEvents`
/// (`approval.decided`, `parental_controls.changed`), each appended in the transaction of its change.
enum FamilyEvents {
    static let outbox = EventOutbox(schema: "family")
}
