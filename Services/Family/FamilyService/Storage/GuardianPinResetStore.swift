import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredPostgres

/// The SQL of `family.guardian_pin_resets`: mailed PIN reset links, kept only as SHA-256 of the token, with
/// the address each went to sealed (`GuardianPinSecrets`).
enum GuardianPinResetStore {
    /// A live reset: its link, the minor whose PIN it sets, the guardian who asked, and where the link went.
    struct Reset: Sendable {
        let link: ResetLinkKey
        let minorID: UserID
        let guardianID: UserID
        let email: StoredText
    }

    /// Used links are kept this long after they expire, so that a late click still hears "already used".
    static let retention: Duration = .seconds(30 * 24 * 3_600)

    /// Whether a reset of `minorID` is pending at `now` (`family.open_pin_resets` says which links count).
    static func isPending(_ minorID: UserID, now: Date, on tx: PostgresTransaction) async throws -> Bool {
        let rows = try await tx.query(
            """
            SELECT EXISTS (
                SELECT 1 FROM family.open_pin_resets WHERE minor_id = \(minorID)::uuid AND expires_at > \(now))
            """)
        return try rows[0].decode(Bool.self, column: 0)
    }

    /// Stores the reset link `token` of `minorID`, valid until `expiresAt`, with the address it goes to
    /// (`email`, sealed for the link), retiring the minor's older links (a new request replaces the previous
    /// one) and forgetting those past retention.
    static func issue(
        _ token: OpaqueToken, of minorID: UserID, guardianID: UserID, email: [UInt8], now: Date,
        expiresAt: Date, on tx: PostgresTransaction
    ) async throws {
        let forgotten = now.addingTimeInterval(-Double(retention.components.seconds))
        try await tx.query(
            """
            DELETE FROM family.guardian_pin_resets WHERE minor_id = \(minorID)::uuid AND expires_at < \(forgotten)
            """)
        try await retire(minorID, now: now, on: tx)
        try await tx.query(
            """
            INSERT INTO family.guardian_pin_resets
                (token_hash, minor_id, guardian_id, email_sealed, created_at, expires_at)
            VALUES (
                \(token.storageHash), \(minorID)::uuid, \(guardianID)::uuid, \(email)::bytea, \(now), \(expiresAt))
            """)
    }

    /// Uses `token` up if it is unused and unexpired at `now`. The UPDATE's row lock makes it single-use under
    /// concurrent redemptions: the second waits, then finds it used.
    static func redeem(_ token: OpaqueToken, now: Date, on tx: PostgresTransaction) async throws -> Reset? {
        try reset(
            from: try await tx.query(
                """
                UPDATE family.guardian_pin_resets SET used_at = \(now)
                WHERE token_hash = \(token.storageHash) AND used_at IS NULL AND expires_at > \(now)
                RETURNING token_hash, minor_id::text, guardian_id::text, email, email_sealed
                """))
    }

    /// Why `token`, not live, cannot be used: unknown, used (or replaced), or else expired.
    static func problem(of token: OpaqueToken, on tx: PostgresTransaction) async throws
        -> FamilyError.LinkProblem
    {
        let rows = try await tx.query(
            "SELECT used_at IS NOT NULL FROM family.guardian_pin_resets WHERE token_hash = \(token.storageHash)"
        )
        guard let used = try rows.first?.decode(Bool.self, column: 0) else { return .unknown }
        return used ? .used : .expired
    }

    /// Marks every unused reset link of `minorID` used: a newer one replaces them, or the PIN was reset.
    static func retire(_ minorID: UserID, now: Date, on tx: PostgresTransaction) async throws {
        try await tx.query(
            """
            UPDATE family.guardian_pin_resets SET used_at = \(now)
            WHERE minor_id = \(minorID)::uuid AND used_at IS NULL
            """)
    }

    /// Up to `limit` reset links' addresses after the link `after` (nil: from the first), by link: what `keys
    /// rotate-data` walks.
    static func emails(after: ResetLinkKey?, limit: Int, on db: some StatementRunner) async throws
        -> [(ResetLinkKey, StoredText)]
    {
        try await db.pureRead(
            """
            SELECT token_hash, email, email_sealed FROM family.guardian_pin_resets
            WHERE token_hash > coalesce(\(after?.hash)::bytea, ''::bytea)
            ORDER BY token_hash LIMIT \(limit)
            """
        ).map { row in
            let (hash, plain, sealed) = try row.decode(([UInt8], String?, [UInt8]?).self)
            return (ResetLinkKey(hash: hash), StoredText(plain: plain, sealed: sealed))
        }
    }

    /// Replaces the address of `link` with `sealed`, unless it changed since it was read as `was`.
    static func reseal(_ link: ResetLinkKey, was: StoredText, as sealed: [UInt8], in tx: PostgresTransaction)
        async throws
    {
        try await tx.query(
            """
            UPDATE family.guardian_pin_resets SET email = NULL, email_sealed = \(sealed)::bytea
            WHERE token_hash = \(link.hash) AND email IS NOT DISTINCT FROM \(was.plain)
                AND email_sealed IS NOT DISTINCT FROM \(was.sealed)::bytea
            """)
    }

    private static func reset(from rows: PostgresRows) throws -> Reset? {
        guard let row = rows.first else { return nil }
        let (hash, minorID, guardianID, plain, sealed) = try row.decode(
            ([UInt8], UserID, UserID, String?, [UInt8]?).self)
        return Reset(
            link: ResetLinkKey(hash: hash), minorID: minorID, guardianID: guardianID,
            email: StoredText(plain: plain, sealed: sealed))
    }
}
