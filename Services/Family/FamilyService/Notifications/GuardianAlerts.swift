import KindredHandlers
import KindredMail
import KindredMessages
import KindredPostgres
import Logging

/// Social events about minors, turned into their guardians' alerts: an in-app notification and an email for
/// each guardian (new contacts and public events joined unless the guardian turned activity alerts off;
/// reported content always), and the minor's activity recorded for the weekly summary. Each event is handled
/// once, however often it is delivered: its activity row is the proof it was.
struct GuardianAlerts: Sendable {
    let database: PostgresPool
    let clock: WallClock
    let mail: FamilyMail
    let identity: IdentityDirectory
    let logger: Logger

    /// How a mail or notice names a minor whose account identity no longer has.
    static let unknownMinorName = "A child you guard"

    init(context: FamilyContext) {
        database = context.database
        clock = context.clock
        mail = context.mail
        identity = context.identity
        logger = context.logger
    }

    /// `event` with what applying it needs from identity, asked outside any transaction. Throws when
    /// identity cannot answer: the consumer retries the event later.
    func address(_ event: Kindred_Social_V1_Event) async throws -> AddressedAlert {
        guard let alert = GuardianAlert(event, receivedAt: clock.now) else {
            logger.debug("social event raises no alert", metadata: ["type": "\(event.type)"])
            return AddressedAlert(
                cursor: event.cursor, alert: nil, minorName: "", emails: [:], traceparent: event.traceparent)
        }
        var emails: [UserID: String] = [:]
        for guardian in try await GuardianLinkStore.guardianIDs(ofMinor: alert.minorID, on: database) {
            emails[guardian] = try await identity.knownAccount(guardian)?.email
        }
        let minorName = try await identity.knownAccount(alert.minorID)?.username ?? Self.unknownMinorName
        return AddressedAlert(
            cursor: event.cursor, alert: alert, minorName: minorName, emails: emails,
            traceparent: event.traceparent)
    }

    /// Applies `addressed` inside the consumer's transaction: records the activity, then alerts the guardians
    /// (as they are at this moment) who want it.
    func apply(_ addressed: AddressedAlert, in tx: PostgresTransaction) async throws {
        guard let alert = addressed.alert, try await GuardianAlertStore.recordActivity(alert, in: tx) else {
            return
        }
        let now = clock.now
        let notice = alert.notice(minorName: addressed.minorName)
        for recipient in try await GuardianAlertStore.recipients(of: alert.minorID, in: tx)
        where alert.isSafetyAlert || recipient.activityAlerts {
            try await NotificationInbox.post(
                notice, to: recipient.guardianID, at: now, sealedWith: mail.outbox.cipher, in: tx)
            guard let email = addressed.emails[recipient.guardianID] else { continue }
            do {
                try await mail.send(
                    mail.guardianAlert(alert, minorName: addressed.minorName, to: email), in: tx)
            } catch let error as MailError {
                // An address identity accepted but mail refuses: the in-app alert stands, and the event must
                // not block the stream behind it.
                logger.error(
                    "guardian alert mail refused",
                    metadata: ["guardian": "\(recipient.guardianID)", "error": "\(error)"])
            }
        }
    }
}
