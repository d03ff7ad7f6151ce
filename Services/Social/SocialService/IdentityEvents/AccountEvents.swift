import KindredAPI
import KindredEvents
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRuntime
import Logging

/// What social does with identity's events, consumed with a cursor in `social.event_cursors`: a user who
/// came of age is no longer a minor here (`social.people`), and a deleted user's social life goes — their
/// graph both ways, their conversations (both sides' copies), the events they organized and their part in
/// others'. Reports they made stay: a tally counts different people, and a deletion must not unfilter abuse.
struct AccountEvents: Sendable {
    let logger: Logger

    /// The consumer every instance runs; identity is read with social's own token.
    static func consumer(context: SocialContext) -> EventConsumer<
        ServiceCallStream<Kindred_Identity_V1_Event>
    > {
        let handler = AccountEvents(logger: context.logger)
        let (identity, credentials) = (context.people.identity, context.people.credentials)
        return EventConsumer(
            source: "identity", schema: "social", pool: context.database, logger: context.logger,
            fetch: { after in
                ServiceCallStream(credentials: credentials) { options in
                    identity.watchEvents(.init(afterCursor: after), options: options)
                }
            },
            handle: { event, tx in try await handler.apply(event, in: tx) })
    }

    /// Applies one event; the others change nothing here.
    func apply(_ event: Kindred_Identity_V1_Event, in tx: PostgresTransaction) async throws {
        switch event.payload {
        case .userCameOfAge(let cameOfAge):
            if let user = checked(cameOfAge.userID) { try await AccountDataStore.markAdult(user, in: tx) }
        case .userDeleted(let deleted):
            if let user = checked(deleted.userID) { try await AccountDataStore.deleteAll(of: user, in: tx) }
        default:
            return
        }
    }

    /// The user id `userID` holds; nil for anything else, logged and skipped, since it would fail the same
    /// way every time and hold the consumer there.
    private func checked(_ userID: String) -> UserID? {
        guard let id = UserID(userID) else {
            logger.error("identity event names no user id; skipped", metadata: ["user_id": "\(userID)"])
            return nil
        }
        return id
    }
}
