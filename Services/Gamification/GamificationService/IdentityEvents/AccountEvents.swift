import KindredAPI
import KindredEvents
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredRuntime
import Logging

/// What gamification does with identity's events, consumed with a cursor in `gamification.event_cursors`:
/// a registered account enters the global ranking at 0 coins; a deleted user's rows go, every part's in the same transaction as the cursor moves, and the account is
/// remembered for `UsageRetention`. Each part that keeps
/// rows of a user adds its own `deleteAll(of:in:)` to `erasures`; the others change nothing here.
struct AccountEvents: Sendable {
    typealias Erasure = @Sendable (UserID, PostgresTransaction) async throws -> Void

    /// Every part's deletion of one user's rows, run in this order.
    static let erasures: [Erasure] = [
        { try await UsageStore.deleteAll(of: [$0], in: $1) }, { try await ChallengeStore.forget($0, in: $1) },
        BabyVoteStore.deleteAll,
        BabyNameSuggestionStore.deleteAll, ActivityCounterStore.deleteAll, RewardStore.deleteAll,
    ]

    let clock: WallClock
    let logger: Logger

    /// The consumer every instance runs; identity is read with gamification's own token.
    static func consumer(
        identity: Kindred_Identity_V1_IdentityService.Client, credentials: ServiceCredentials,
        context: GamificationContext
    ) -> EventConsumer<ServiceCallStream<Kindred_Identity_V1_Event>> {
        let handler = AccountEvents(clock: context.clock, logger: context.logger)
        return EventConsumer(
            source: "identity", schema: "gamification", pool: context.database, logger: context.logger,
            fetch: { after in
                ServiceCallStream(credentials: credentials) { options in
                    identity.watchEvents(.init(afterCursor: after), options: options)
                }
            },
            handle: { event, tx in try await handler.apply(event, in: tx) })
    }

    /// Applies one event; the others change nothing here. A registered account takes its place in the global
    /// ranking at 0 coins, so the ranking counts every user, not only those who joined a challenge.
    func apply(_ event: Kindred_Identity_V1_Event, in tx: PostgresTransaction) async throws {
        switch event.payload {
        case .userRegistered(let registered):
            guard let user = userID(registered.userID) else { return }
            try await CoinStore.enroll(user, in: tx)
        case .userDeleted(let deleted):
            guard let user = userID(deleted.userID) else { return }
            for erase in Self.erasures { try await erase(user, tx) }
            try await ErasedAccountStore.remember(user, at: clock.now, in: tx)
        default:
            return
        }
    }

    /// The event's user id; nil, logged, when it names none: it would fail the same way every time and hold
    /// the consumer there.
    private func userID(_ text: String) -> UserID? {
        if let user = UserID(text) { return user }
        logger.error("identity event names no user id; skipped", metadata: ["user_id": "\(text)"])
        return nil
    }
}
