import KindredAuth
import KindredEvents
import KindredHandlers
import KindredPostgres
import Logging

/// The account rules of the identity service: registration, email verification, date-of-birth changes, the
/// reads of an account, deletion, the compliance report and the coming-of-age sweep (one file per concern).
/// Each rule takes the caller explicitly, so it is tested without a server; the RPC handlers only translate.
struct Accounts: Sendable {
    let database: PostgresPool
    let passwords: PasswordHasher
    /// Sign-in's lockout: the password given again for a change counts toward it.
    let lockout: SignInLockout
    let clock: WallClock
    let mail: IdentityMail
    /// Identity's data keys over dates of birth: every date is sealed when written and opened when read.
    let birthDates: BirthDates
    let logger: Logger
    let events = EventOutbox(schema: "identity")

    /// Identity's emails: sealed under the data keys that seal dates of birth, indexed under the secret that
    /// keys the lockout.
    var emails: AccountEmails { AccountEmails(cipher: birthDates.cipher, secret: lockout.secret) }

    /// How long a verification or confirmation link works.
    static let emailTokenLifetime: Duration = .seconds(24 * 3_600)

    /// Appends `event` to the event outbox inside `tx`, the transaction of the change it describes.
    func emit(_ event: IdentityEvent, in tx: PostgresTransaction) async throws {
        try await events.append(
            type: event.type, payload: try event.serialized(), sealedWith: birthDates.cipher, in: tx)
    }
}
