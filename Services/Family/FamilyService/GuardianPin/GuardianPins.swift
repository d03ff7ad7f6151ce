import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC

/// The guardian PIN of each minor: set by a guardian, checked for the minor or a guardian, locked for 15
/// minutes after three wrong PINs in a row, reset by email. Each rule takes the caller explicitly, so it is
/// tested without a server; the RPC handlers only translate.
struct GuardianPins: Sendable {
    static let attemptsBeforeLock = 3
    static let lockDuration: Duration = .seconds(15 * 60)

    let database: PostgresPool
    let hasher: PasswordHasher
    let clock: WallClock
    let mail: FamilyMail
    /// PIN hashes and reset addresses as they are stored: sealed under family's data keys.
    let secrets: GuardianPinSecrets
    /// Identity's owner view of an account: the guardian's address and name for the reset mail.
    let account: @Sendable (UserID) async throws -> Kindred_Identity_V1_Account

    init(
        database: PostgresPool, hasher: PasswordHasher, clock: WallClock, mail: FamilyMail,
        secrets: GuardianPinSecrets,
        account: @escaping @Sendable (UserID) async throws -> Kindred_Identity_V1_Account
    ) {
        self.database = database
        self.hasher = hasher
        self.clock = clock
        self.mail = mail
        self.secrets = secrets
        self.account = account
    }

    init(context: FamilyContext) {
        let identity = context.identity
        self.init(
            database: context.database, hasher: context.pinHasher, clock: context.clock, mail: context.mail,
            secrets: GuardianPinSecrets(cipher: context.cipher), account: { try await identity.account($0) })
    }

    /// Checks `attempt` for `caller` (the minor or a guardian) and opens a guardian session on the minor.
    func verify(_ attempt: PinAttempt, caller: Caller) async throws -> GuardianSessions.Opened {
        try await prove(attempt, caller: caller) { now, tx in
            try await GuardianSessions.open(attempt.minorID, for: caller, now: now, on: tx)
        }
    }

    /// Checks `attempt` for `caller` (the minor or a guardian) like `verify`, counting toward the same lock
    /// and refusing the same way, but opens no session: the proof parent mode asks for.
    func checkProof(_ attempt: PinAttempt, caller: Caller) async throws {
        try await prove(attempt, caller: caller) { _, _ in }
    }

    /// The attempt, under the PIN row's lock: concurrent attempts on any instance take turns, so three
    /// wrong PINs lock out a fourth however they race. `then` runs in the same transaction on a right PIN.
    private func prove<Value: Sendable>(
        _ attempt: PinAttempt, caller: Caller, then: (Date, PostgresTransaction) async throws -> Value
    ) async throws -> Value {
        let (minorID, pin) = (attempt.minorID, attempt.pin)
        // A wrong PIN's count must commit, so it comes back as a value and is thrown after the commit.
        let outcome: Result<Value, RPCError> = try await database.transaction { tx in
            guard try await MinorAccess.of(caller, to: minorID, on: tx) != .stranger else {
                throw FamilyError.userNotFound
            }
            guard let stored = try await GuardianPinStore.lock(minorID, on: tx) else {
                throw FamilyError.pinNotSet
            }
            // Read once the row is ours: attempts queued on it judge the lock at their own turn.
            let now = clock.now
            if let lockedUntil = stored.lockedUntil, StoredInstant.isAhead(lockedUntil, of: now) {
                return .failure(
                    FamilyError.pinLocked(
                        retryAfter: StoredInstant.secondsLeft(until: lockedUntil, from: now)))
            }
            let hash = try secrets.hashes.open(stored.hash, of: minorID)
            guard try await pinHashing({ try await hasher.verify(pin, against: hash) }) != .mismatch
            else {
                return .failure(
                    try await countFailure(minorID, after: stored.failedAttempts, now: now, on: tx))
            }
            if stored.failedAttempts > 0 || stored.lockedUntil != nil {
                try await GuardianPinStore.recordFailures(minorID, count: 0, lockedUntil: nil, on: tx)
            }
            return .success(try await then(now, tx))
        }
        return try outcome.get()
    }

    /// Counts one more wrong PIN; the third in a row locks the PIN and starts the count again.
    private func countFailure(_ minorID: UserID, after failures: Int, now: Date, on tx: PostgresTransaction)
        async throws -> RPCError
    {
        let failures = failures + 1
        guard failures >= Self.attemptsBeforeLock else {
            try await GuardianPinStore.recordFailures(minorID, count: failures, lockedUntil: nil, on: tx)
            return FamilyError.pinIncorrect(attemptsRemaining: Self.attemptsBeforeLock - failures)
        }
        let lockedUntil = now.addingTimeInterval(Double(Self.lockDuration.components.seconds))
        try await GuardianPinStore.recordFailures(minorID, count: 0, lockedUntil: lockedUntil, on: tx)
        return FamilyError.pinLocked(retryAfter: Self.lockDuration)
    }
}
