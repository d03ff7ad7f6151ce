import KindredHandlers
import KindredPostgres

/// The guardian rules: a minor invites a guardian by email, an adult with a verified email accepts, at most
/// two guardians per minor, and only the guardian ends a link (one file per concern). Each rule takes the
/// caller explicitly, so it is tested without a server; the RPC handlers only translate. Other parts ask
/// `isGuardian` and `guardians(of:)`.
struct Guardians: Sendable {
    /// At most this many guardians per minor.
    static let maximumPerMinor = 2
    /// How long an invitation link works.
    static let invitationLifetime: Duration = .seconds(7 * 24 * 3_600)

    let database: PostgresPool
    let clock: WallClock
    let mail: FamilyMail
    /// Whether the account `userID` has verified its email: identity's answer.
    let isEmailVerified: @Sendable (_ userID: UserID) async throws -> Bool

    /// The invitations' addresses, sealed under the mail's data keys.
    var emails: SealedText<GuardianInvitationID> { InvitationEmails(cipher: mail.outbox.cipher).guardian }

    /// Whether `guardianID` guards `minorID`: one index probe, for any part's permission checks.
    func isGuardian(_ guardianID: UserID, of minorID: UserID) async throws -> Bool {
        try await GuardianLinkStore.exists(guardian: guardianID, minor: minorID, on: database)
    }

    /// `isGuardian` as a step of `tx`, seeing what the transaction wrote.
    func isGuardian(_ guardianID: UserID, of minorID: UserID, in tx: PostgresTransaction) async throws -> Bool
    {
        try await GuardianLinkStore.exists(guardian: guardianID, minor: minorID, on: tx)
    }

    /// The user ids of `minorID`'s guardians, the first linked first.
    func guardians(of minorID: UserID) async throws -> [UserID] {
        try await GuardianLinkStore.guardianIDs(ofMinor: minorID, on: database)
    }

    /// `guardians(of:)` inside `tx`.
    func guardians(of minorID: UserID, in tx: PostgresTransaction) async throws -> [UserID] {
        try await GuardianLinkStore.guardianIDs(ofMinor: minorID, on: tx)
    }
}

extension Guardians {
    /// The rules as the service runs them, asking identity about emails.
    init(context: FamilyContext) {
        let identity = context.identity
        self.init(
            database: context.database, clock: context.clock, mail: context.mail,
            isEmailVerified: { try await identity.account($0).emailVerified })
    }
}
