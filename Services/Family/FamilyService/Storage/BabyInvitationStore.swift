import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredMessages
import KindredPostgres

/// The SQL of `family.baby_invitations`: the links owners mail to a would-be co-owner or follower, each token
/// kept only as its SHA-256 and each address sealed (`InvitationEmails`, opened as rows are read), keyed by
/// profile first. The writes are in `BabyInvitationStore+Writes.swift`.
enum BabyInvitationStore {
    /// One invitation as stored.
    struct Invitation: Sendable, Equatable {
        let id: BabyInvitationID
        let profile: BabyProfileID
        let invitedBy: UserID
        let requestID: String
        let email: String
        let role: BabyRole
        let sentAt: Date
        let expiresAt: Date
        let acceptedBy: UserID?
        let revokedAt: Date?

        /// What the invitation is at `now`.
        func state(at now: Date) -> Kindred_Family_V1_BabyInvitationState {
            if acceptedBy != nil { return .accepted }
            if revokedAt != nil { return .revoked }
            return isLive(at: now) ? .pending : .expired
        }

        /// Whether the link still works at `now`. PostgreSQL keeps whole microseconds, so an invitation ended
        /// "now" (replaced by a newer one) reads back up to half a microsecond after `now`: less than one
        /// microsecond left counts as ended.
        func isLive(at now: Date) -> Bool {
            expiresAt.timeIntervalSince(now) >= 0.000_001
        }
    }

    /// `profile`'s invitation made by the request `requestID`, if any.
    static func invitation(
        in profile: BabyProfileID, requestID: String, emails: SealedText<BabyInvitationKey>,
        on db: some StatementRunner
    ) async throws -> Invitation? {
        try await db.pureRead(
            """
            SELECT profile_id, invitation_id, invited_by, request_id, email, email_sealed, role, sent_at,
                expires_at, accepted_by, revoked_at
            FROM family.baby_invitations
            WHERE profile_id = \(profile)::uuid AND request_id = \(requestID)
            """
        ).first.map { try decode($0, emails) }
    }

    /// `profile`'s invitation `id`, locked until `tx` ends; nil when there is none.
    static func hold(
        _ id: BabyInvitationID, in profile: BabyProfileID, emails: SealedText<BabyInvitationKey>,
        tx: PostgresTransaction
    ) async throws -> Invitation? {
        try await tx.query(
            """
            SELECT profile_id, invitation_id, invited_by, request_id, email, email_sealed, role, sent_at,
                expires_at, accepted_by, revoked_at
            FROM family.baby_invitations
            WHERE profile_id = \(profile)::uuid AND invitation_id = \(id)::uuid FOR UPDATE
            """
        ).first.map { try decode($0, emails) }
    }

    /// The invitation whose current link carries `token`, if any.
    static func invitation(
        token: OpaqueToken, emails: SealedText<BabyInvitationKey>, on db: some StatementRunner
    ) async throws -> Invitation? {
        try await db.pureRead(
            """
            SELECT profile_id, invitation_id, invited_by, request_id, email, email_sealed, role, sent_at,
                expires_at, accepted_by, revoked_at
            FROM family.baby_invitations WHERE token_hash = \(token.storageHash)
            """
        ).first.map { try decode($0, emails) }
    }

    /// The profile of the invitation whose current link carries `token`, if any: what an acceptance locks
    /// first, read without opening the address.
    static func profile(ofToken token: OpaqueToken, on db: some StatementRunner) async throws
        -> BabyProfileID?
    {
        try await db.pureRead(
            "SELECT profile_id FROM family.baby_invitations WHERE token_hash = \(token.storageHash)"
        ).first?.decode(BabyProfileID.self)
    }

    /// `profile`'s invitations older than `before` (all when nil), newest first.
    static func page(
        of profile: BabyProfileID, before: BabyInvitationID?, limit: Int,
        emails: SealedText<BabyInvitationKey>,
        on db: some StatementRunner
    ) async throws -> [Invitation] {
        try await db.pureRead(
            """
            SELECT profile_id, invitation_id, invited_by, request_id, email, email_sealed, role, sent_at,
                expires_at, accepted_by, revoked_at
            FROM family.baby_invitations
            WHERE profile_id = \(profile)::uuid
                AND (\(before)::uuid IS NULL OR invitation_id < \(before)::uuid)
            ORDER BY invitation_id DESC LIMIT \(limit)
            """
        ).map { try decode($0, emails) }
    }

    /// Takes `profile`'s mailing turn until `tx` ends: the invitations that mail a link (invite, resend) take
    /// turns per profile, on whatever replica they run, so each counts the sends committed before it
    /// (`mailed`, in a later statement, sees them) and the daily limit holds however many arrive at once.
    static func holdMailingTurn(of profile: BabyProfileID, _ tx: PostgresTransaction) async throws {
        try await tx.query(
            "SELECT 1 FROM family.baby_profiles WHERE profile_id = \(profile)::uuid FOR NO KEY UPDATE")
    }

    /// How many of `profile`'s invitations were last mailed after `since`, and the earliest of those sends.
    static func mailed(in profile: BabyProfileID, since: Date, _ tx: PostgresTransaction) async throws
        -> (count: Int, oldest: Date?)
    {
        let rows = try await tx.query(
            """
            SELECT count(*), min(sent_at) FROM family.baby_invitations
            WHERE profile_id = \(profile)::uuid AND sent_at > \(since)
            """)
        let (count, oldest) = try rows[0].decode((Int64, Date?).self)
        return (Int(count), oldest)
    }

    /// `profile`'s invitations whose link works at `now` (neither accepted, revoked nor expired).
    static func live(
        in profile: BabyProfileID, now: Date, emails: SealedText<BabyInvitationKey>, _ tx: PostgresTransaction
    )
        async throws -> [Invitation]
    {
        try await tx.query(
            """
            SELECT profile_id, invitation_id, invited_by, request_id, email, email_sealed, role, sent_at,
                expires_at, accepted_by, revoked_at
            FROM family.baby_invitations
            WHERE profile_id = \(profile)::uuid AND accepted_at IS NULL AND revoked_at IS NULL
                AND expires_at > \(now)
            """
        ).map { try decode($0, emails) }
    }

    private static func decode(_ row: PostgresRow, _ emails: SealedText<BabyInvitationKey>) throws
        -> Invitation
    {
        let (
            profile, id, invitedBy, requestID, plain, sealed, role, sentAt, expiresAt, acceptedBy, revokedAt
        ) =
            try row.decode(
                (
                    BabyProfileID, BabyInvitationID, UserID, String, String?, [UInt8]?, Int, Date, Date,
                    UserID?,
                    Date?
                ).self)
        let email = try emails.open(
            StoredText(plain: plain, sealed: sealed), of: BabyInvitationKey(profile: profile, invitation: id))
        return Invitation(
            id: id, profile: profile, invitedBy: invitedBy, requestID: requestID, email: email,
            role: BabyRole(rawValue: role) ?? .follower, sentAt: sentAt, expiresAt: expiresAt,
            acceptedBy: acceptedBy, revokedAt: revokedAt)
    }
}
