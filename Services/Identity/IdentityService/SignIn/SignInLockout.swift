import KindredAuth
import KindredPostgres

/// Slows down password guessing: after 5 wrong passwords in a row for one identifier, each further attempt
/// waits out a delay that doubles from 5 seconds up to 15 minutes. A success (or a password reset) ends it.
///
/// The counter is keyed by the identifier as typed (trimmed, lower-cased), hashed with the service secret,
/// never by account: an unknown username is counted and locked exactly like a real one, so a locked answer
/// says nothing about whether an account exists. The price: a username and an email of the same account
/// are two counters. The password given again for `ChangeDateOfBirth` and `DeleteAccount` counts under the
/// account's username, so a stolen access token buys no guesses beyond sign-in's. Rows live in the
/// database (`SignInFailureStore`), so the count holds across instances and restarts.
struct SignInLockout: Sendable {
    static let freeFailures = 5
    static let firstDelay: Duration = .seconds(5)
    static let longestDelay: Duration = .seconds(15 * 60)
    /// Failures older than this are forgotten: the next one counts as the first.
    static let memory: Duration = .seconds(24 * 60 * 60)

    let database: PostgresPool
    let secret: ServiceSecret

    /// The lookup key of what a user typed into the username field.
    func key(_ identifier: String) -> [UInt8] {
        secret.keyedHash(Self.normalized(identifier))
    }

    /// Usernames and emails are unique ignoring case, so their counters are too.
    static func normalized(_ identifier: String) -> String {
        identifier.lowercased()
    }

    /// Admits one password attempt for `identifier`, counting it as a failure until `clear` says otherwise;
    /// while locked, throws `IdentityError.signInLocked` and the password must not be checked.
    func admit(_ identifier: String) async throws {
        let key = key(identifier)
        if try await failures.countUnlessLocked(key) { return }
        // The lock may have run out since the refusal: a second is as good as any answer.
        let seconds = try await failures.remainingLock(key)
        throw IdentityError.signInLocked(retryAfter: .seconds(max(1, seconds ?? 1)))
    }

    /// Forgets the failures of `identifiers`: the password just checked out, or a reset replaced it.
    func clear(_ identifiers: [String], on db: some StatementRunner) async throws {
        for identifier in identifiers {
            try await failures.delete(key(identifier), on: db)
        }
    }

    /// Deletes counters nobody has failed on for `memory` and whose lock has passed, `limit` a statement.
    func sweep(batchesOf limit: Int = PostgresPool.sweepBatch) async throws -> Int {
        try await failures.sweep(batchesOf: limit)
    }

    private var failures: SignInFailureStore { SignInFailureStore(database: database) }
}
