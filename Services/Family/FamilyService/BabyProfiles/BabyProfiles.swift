import KindredHandlers
import KindredPostgres

/// Baby profiles: the profile itself (create, read, edit with a field mask, delete, the caller's list), its
/// owners and followers (leave, remove, list), and the invitations that bring them in (invite, list, resend,
/// revoke, accept). Each rule takes the caller's account id explicitly, so it is tested without a server; the
/// RPC handlers only translate. Rules are in `BabyProfiles+*.swift`, their SQL in `Storage/BabyProfileStore`,
/// `BabyMemberStore+Changes` and `BabyInvitationStore`.
struct BabyProfiles: Sendable {
    /// At most this many owners per profile: the creator and one co-owner.
    static let maximumOwners = 2
    /// How long an invitation link works, from when it was last mailed.
    static let invitationLifetime: Duration = .seconds(7 * 24 * 3_600)

    let database: PostgresPool
    let clock: WallClock
    let mail: FamilyMail
    let membership: BabyMembership
    /// Seals and opens the profiles' names and expected birth dates.
    let seals: BabySeals
    /// The address of `userID`'s account and whether it is verified: identity's answer.
    let account: @Sendable (_ userID: UserID) async throws -> (email: String, verified: Bool)

    /// The invitations' addresses, sealed under the same data keys.
    var emails: SealedText<BabyInvitationKey> { InvitationEmails(cipher: seals.cipher).baby }
}

extension BabyProfiles {
    /// The rules as the service runs them, asking identity about accounts.
    init(context: FamilyContext) {
        let identity = context.identity
        self.init(
            database: context.database, clock: context.clock, mail: context.mail,
            membership: BabyMembership(database: context.database), seals: BabySeals(cipher: context.cipher),
            account: { userID in
                let account = try await identity.account(userID)
                return (account.email, account.emailVerified)
            })
    }
}
