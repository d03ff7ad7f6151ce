import FoundationEssentials
import KindredEvents
import KindredHandlers
import KindredMessages
import KindredPostgres
import Logging

/// What family does with identity's events, each inside the transaction that also stores the consumer's
/// cursor. Every handler is idempotent: an event seen again changes nothing and tells nobody twice.
struct IdentityEventHandler: Sendable {
    let clock: WallClock
    let mail: FamilyMail
    let logger: Logger

    /// The consumer of identity's stream, its cursor in `family.event_cursors` under `identity`.
    static func consumer(context: FamilyContext) -> EventConsumer<IdentityEventStream> {
        let handler = IdentityEventHandler(clock: context.clock, mail: context.mail, logger: context.logger)
        let identity = context.identity
        return EventConsumer(
            source: "identity", schema: "family", pool: context.database, logger: context.logger,
            fetch: { IdentityEventStream(identity: identity, after: $0) },
            handle: { event, tx in try await handler.apply(event, in: tx) })
    }

    /// Applies one event: a new minor gets controls, a user who came of age loses them, a deleted user's
    /// family data goes. Other events change nothing here.
    func apply(_ received: ReceivedIdentityEvent, in tx: PostgresTransaction) async throws {
        let now = clock.now
        switch received.event.payload {
        case .userRegistered(let registered):
            guard let user = checked(registered.userID),
                registered.ageBand == .ageBand1315 || registered.ageBand == .ageBand1617
            else { return }
            try await ControlsLifecycleStore.createForMinor(user, now: now, in: tx)
        case .userCameOfAge(let cameOfAge):
            guard let user = checked(cameOfAge.userID) else { return }
            try await comeOfAge(user, account: received.account, now: now, in: tx)
        case .userDeleted(let deleted):
            guard let user = checked(deleted.userID) else { return }
            try await forget(user, now: now, in: tx)
        default:
            return
        }
    }

    /// Controls off, pending invitations ended, and the user told in the app and by email, once.
    private func comeOfAge(
        _ user: UserID, account: Kindred_Identity_V1_Account?, now: Date, in tx: PostgresTransaction
    ) async throws {
        try await ControlsLifecycleStore.switchOff(user, now: now, in: tx)
        try await GuardianInvitationStore.expirePending(minor: user, now: now, in: tx)
        let notice = Notice(
            kind: .cameOfAge, title: "You are 18 now",
            body: "Parental controls are off: your account settings are yours to manage.",
            dedupKey: "came_of_age")
        guard
            try await NotificationInbox.post(
                notice, to: user, at: now, sealedWith: mail.outbox.cipher, in: tx),
            let account
        else { return }
        try await mail.send(try mail.cameOfAge(to: account.email, username: account.username), in: tx)
    }

    /// The user's profile, guardian links both ways, invitations, controls, and their notifications; their
    /// baby-profile memberships, deactivating a profile left with no owner.
    private func forget(_ user: UserID, now: Date, in tx: PostgresTransaction) async throws {
        try await ControlsLifecycleStore.delete(user, in: tx)
        try await GuardianLinkStore.deleteAll(of: user, in: tx)
        try await GuardianInvitationStore.deleteAll(of: user, in: tx)
        try await ProfileStore.delete(user, in: tx)
        try await NotificationDataStore.deleteAll(of: user, in: tx)
        try await BabyMemberStore.forget(user, now: now, in: tx)
        try await BabyInvitationStore.forgetAccepted(by: user, in: tx)
    }

    /// The user id in `text`; nil for an event naming anything else, which is logged and skipped, since it
    /// would fail the same way every time and hold the consumer there.
    private func checked(_ text: String) -> UserID? {
        guard let userID = UserID(text) else {
            logger.error("identity event names no user id; skipped", metadata: ["user_id": "\(text)"])
            return nil
        }
        return userID
    }
}
