import KindredAPI
import KindredEvents
import KindredMessages
import KindredRuntime

/// What gamification does with family's events, consumed with a cursor in `gamification.event_cursors`
/// (source "family"): the activity counters (`FamilyEventCounters`). The baby-profile games' family consumer
/// replaces this one by calling the same handler beside its own.
enum ActivityCounterEvents {
    /// The consumer every instance runs; family is read with gamification's own token.
    static func consumer(
        family: Kindred_Family_V1_FamilyService.Client, credentials: ServiceCredentials,
        context: GamificationContext
    ) -> EventConsumer<ServiceCallStream<Kindred_Family_V1_Event>> {
        let counters = FamilyEventCounters(logger: context.logger)
        return EventConsumer(
            source: FamilyEventCounters.source, schema: "gamification", pool: context.database,
            logger: context.logger,
            fetch: { after in
                ServiceCallStream(credentials: credentials) { options in
                    family.watchEvents(.init(afterCursor: after), options: options)
                }
            },
            handle: { event, tx in try await counters.apply(event, in: tx) })
    }
}
