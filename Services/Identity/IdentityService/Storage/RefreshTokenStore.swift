import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredPostgres
import Logging

/// Refresh tokens: opaque 256-bit tokens stored as SHA-256, each belonging to a chain that one sign-in (or
/// one device mode) started. Using a token rotates it: it is marked rotated and its successor is issued in the
/// same chain. Presenting a rotated token again means two parties hold the chain, so the whole chain is revoked.
///
/// A token lives 30 days from its issue, so an app used at least monthly stays signed in; a rotated token
/// is kept until then too, which is how reuse is still recognised. A chain's mode (`RefreshChainMode`) fixes
/// the scope of every token it hands out and, in parent mode, when it stops refreshing.
struct RefreshTokenStore: Sendable {
    static let lifetime: Duration = .seconds(30 * 24 * 60 * 60)

    let database: PostgresPool
    let logger: Logger

    /// What presenting a refresh token came to.
    enum Rotation: Sendable, Equatable {
        /// The token was live: here is its successor, with its account's claims as they are now, in its
        /// chain's mode.
        case rotated(subject: TokenSubject, next: OpaqueToken, mode: RefreshChainMode)
        /// The token is live but its parent-mode session is over: the proof must be given again.
        case sessionEnded
        /// Unknown, expired, revoked or reused (whose chain is now revoked), or its account is gone: sign in
        /// again.
        case refused
    }

    /// Starts a chain for `accountID` (a sign-in, or a device mode) and returns its first token: one
    /// statement, the chain and its token inserted together.
    func startChain(for accountID: UserID, mode: RefreshChainMode = .signIn) async throws -> OpaqueToken {
        let token = OpaqueToken.generate()
        try await database.query(
            """
            WITH chain AS (
                INSERT INTO identity.refresh_chains
                    (id, account_id, expires_at, scope, session_ends_at, guardian_pin_minor)
                VALUES (gen_random_uuid(), \(accountID)::uuid, now() + \(Self.lifetime.wholeSeconds) * interval '1 second',
                    \(mode.scope.rawValue), \(mode.sessionEndsAt)::timestamptz, \(mode.guardianPinMinor)::uuid)
                RETURNING id
            )
            INSERT INTO identity.refresh_tokens (token_hash, chain_id, expires_at)
            SELECT \(token.storageHash)::bytea, id, now() + \(Self.lifetime.wholeSeconds) * interval '1 second'
            FROM chain
            """)
        return token
    }

    /// Rotates `presented` at `now`: its successor when it is live, otherwise a refusal (revoking its chain
    /// on reuse). A parent-mode chain is live until its session ends.
    ///
    /// A live token costs one statement: it marks the token rotated, reads the account's claims, inserts the
    /// successor and extends the chain. Of concurrent uses of one token, the first to lock its row wins; the
    /// others find it rotated once the winner commits, which is reuse.
    func rotate(_ presented: OpaqueToken, now: Date) async throws -> Rotation {
        let next = OpaqueToken.generate()
        // One statement is atomic alone; the transaction only sends it to one of the loop's transaction
        // connections. On the loop's shared connection each write waited for the commits (WAL flushes) queued
        // ahead of it: at 300 refreshes/s the server's p50 went from 16 ms to 103 ms and identity shed calls.
        let rows = try await database.transaction { tx in
            try await tx.query(
                """
                WITH rotated AS (
                    UPDATE identity.refresh_tokens t SET rotated_at = now()
                    FROM identity.refresh_chains c JOIN identity.accounts a ON a.id = c.account_id
                    WHERE t.token_hash = \(presented.storageHash) AND t.rotated_at IS NULL AND t.expires_at > now()
                        AND c.id = t.chain_id AND c.revoked_at IS NULL
                        AND (c.session_ends_at IS NULL OR c.session_ends_at > \(now))
                    RETURNING c.id AS chain, c.scope, c.session_ends_at, c.guardian_pin_minor,
                        a.id AS account, a.role, a.age_band, a.parental_controls
                ), issued AS (
                    INSERT INTO identity.refresh_tokens (token_hash, chain_id, expires_at)
                    SELECT \(next.storageHash)::bytea, chain, now() + \(Self.lifetime.wholeSeconds) * interval '1 second'
                    FROM rotated
                ), extended AS (
                    UPDATE identity.refresh_chains c SET expires_at = now() + \(Self.lifetime.wholeSeconds) * interval '1 second'
                    FROM rotated r WHERE c.id = r.chain
                )
                SELECT chain::text, scope, session_ends_at, guardian_pin_minor::text,
                    account::text, role, age_band, parental_controls
                FROM rotated
                """)
        }
        guard let row = rows.first else {
            // Statements of their own, each reading what committed before it: a use that lost a race to
            // rotate the token now sees it rotated, and revokes the chain as any other reuse does.
            if try await sessionEnded(presented, now: now) { return .sessionEnded }
            try await revokeOnReuse(presented)
            return .refused
        }
        let (chain, scope, sessionEndsAt, guardianPinMinor, account, role, band, controls) = try row.decode(
            (String, String, Date?, UserID?, UserID, String, String, Bool).self)
        guard let scope = TokenClaims.Scope(rawValue: scope) else {
            throw PostgresError(
                kind: .decoding,
                message: "identity.refresh_chains row \(chain) holds an unknown scope '\(scope)'")
        }
        return .rotated(
            subject: try AccountStore.tokenSubject(
                account, role: role, band: band, parentalControls: controls),
            next: next,
            mode: RefreshChainMode(
                scope: scope, sessionEndsAt: sessionEndsAt, guardianPinMinor: guardianPinMinor))
    }

    /// Revokes the chain `presented` belongs to, if any: RevokeToken answers the same either way.
    func revokeChain(of presented: OpaqueToken) async throws {
        try await database.query(
            """
            UPDATE identity.refresh_chains c SET revoked_at = now()
            FROM identity.refresh_tokens t
            WHERE t.token_hash = \(presented.storageHash) AND c.id = t.chain_id AND c.revoked_at IS NULL
            """)
    }

    /// Revokes every live chain of `accountID`, on the pool or inside a password reset's transaction; returns
    /// how many (each held one live token).
    @discardableResult
    func revokeAll(of accountID: UserID, on db: some StatementRunner) async throws -> Int {
        try await db.query(
            """
            UPDATE identity.refresh_chains SET revoked_at = now()
            WHERE account_id = \(accountID)::uuid AND revoked_at IS NULL AND expires_at > now()
            """
        ).affectedRows
    }

    /// Deletes tokens past their expiry, and chains whose every token is (revoked chains included) or whose
    /// parent-mode session has ended, with their tokens; `limit` rows a statement. How many tokens expired.
    func sweep(batchesOf limit: Int = PostgresPool.sweepBatch) async throws -> Int {
        let tokens = try await database.deleteInBatches(
            from: "identity.refresh_tokens", where: "expires_at < now()", limit: limit)
        try await database.deleteInBatches(
            from: "identity.refresh_chains", where: "expires_at < now() OR session_ends_at < now()",
            limit: limit)
        return tokens
    }

    /// Whether `presented` is its chain's live token, in a parent-mode session that has ended by `now`.
    private func sessionEnded(_ presented: OpaqueToken, now: Date) async throws -> Bool {
        try await !database.pureRead(
            """
            SELECT 1 FROM identity.refresh_tokens t JOIN identity.refresh_chains c ON c.id = t.chain_id
            WHERE t.token_hash = \(presented.storageHash) AND t.rotated_at IS NULL AND t.expires_at > now()
                AND c.revoked_at IS NULL AND c.session_ends_at <= \(now)
            """
        ).isEmpty
    }

    private func revokeOnReuse(_ presented: OpaqueToken) async throws {
        let revoked = try await database.query(
            """
            UPDATE identity.refresh_chains c SET revoked_at = now()
            FROM identity.refresh_tokens t
            WHERE t.token_hash = \(presented.storageHash) AND t.rotated_at IS NOT NULL
                AND c.id = t.chain_id AND c.revoked_at IS NULL
            RETURNING c.id::text, c.account_id::text
            """)
        if let row = revoked.first {
            let (chain, account) = try row.decode((String, String).self)
            logger.warning(
                "a rotated refresh token was presented again: its chain is revoked",
                metadata: ["chain": "\(chain)", "account": "\(account)"])
        }
    }
}
