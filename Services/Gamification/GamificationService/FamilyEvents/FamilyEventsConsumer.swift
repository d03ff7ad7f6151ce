import KindredAPI
import KindredEvents
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredRuntime
import Logging

/// What gamification does with family's events (`WatchEvents`), consumed with a cursor in
/// `gamification.event_cursors` (source "family"): every handler sees every event, in the transaction that
/// moves the cursor, so an event is applied with its cursor or not at all. Delivery is at least once: each
/// handler makes a replayed event change nothing. Each part that learns from family adds its handler to
/// `handlers(_:)`; a handler ignores the events it has no use for.
enum FamilyEventsConsumer {
    typealias Handler = @Sendable (Kindred_Family_V1_Event, PostgresTransaction) async throws -> Void

    /// Every part's handler, run in this order.
    static func handlers(_ context: GamificationContext) -> [Handler] {
        let counters = FamilyEventCounters(logger: context.logger)
        return [
            BabyVoteReveal(votes: BabyVotes(context: context), logger: context.logger).apply,
            { event, tx in counters.apply(event, in: tx) },
            BabyProfilePurge(logger: context.logger).apply,
        ]
    }

    /// The consumer every instance runs; family is read with gamification's own token.
    static func consumer(
        family: Kindred_Family_V1_FamilyService.Client, credentials: ServiceCredentials,
        context: GamificationContext
    ) -> EventConsumer<ServiceCallStream<Kindred_Family_V1_Event>> {
        let handlers = handlers(context)
        return EventConsumer(
            source: "family", schema: "gamification", pool: context.database, logger: context.logger,
            fetch: { after in
                ServiceCallStream(credentials: credentials) { options in
                    family.watchEvents(.init(afterCursor: after), options: options)
                }
            },
            handle: { event, tx in
                for handle in handlers { try await handle(event, tx) }
            })
    }
}

/// `baby.arrived`: the profile's votes close and are revealed.
struct BabyVoteReveal: Sendable {
    let votes: BabyVotes
    let logger: Logger

    @Sendable func apply(_ event: Kindred_Family_V1_Event, in tx: PostgresTransaction) async throws {
        guard case .babyArrived(let arrived) = event.payload else { return }
        guard let arrival = BabyArrival(arrived) else {
            // It would fail the same way every time and hold the consumer there.
            logger.error(
                "baby.arrived names no profile id; skipped", metadata: ["profile_id": "\(arrived.profileID)"])
            return
        }
        try await votes.reveal(arrival, in: tx)
    }
}
