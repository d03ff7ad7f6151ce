import FoundationEssentials
import KindredAuth
import KindredHandlers
import KindredPostgres
import Logging

/// Sign-in, tokens, signing keys and password reset: what `IdentityAPI` holds for its credential RPCs.
struct Credentials: Sendable {
    let database: PostgresPool
    let signIn: PasswordSignIn
    let refreshTokens: RefreshTokenStore
    let clients: ClientRegistry
    let issuer: AccessTokenIssuer
    let signingKeys: SigningKeyStore
    let resets: PasswordResets
    let passwords: PasswordHasher
    /// What tokens are issued at, and parent-mode sessions end by.
    let clock: WallClock
    let logger: Logger

    /// Opens (or, on a fresh database, creates) the signing key and wires the stores together.
    static func start(
        database: PostgresPool, passwords: PasswordHasher, settings: IdentitySettings,
        clock: WallClock = .system,
        keyRefreshInterval: Duration = SigningKeyRing.refreshInterval, logger: Logger
    ) async throws -> Credentials {
        let signingKeys = SigningKeyStore(database: database, secret: settings.secret)
        let ring = try await SigningKeyRing.load(
            store: signingKeys, refreshInterval: keyRefreshInterval, logger: logger)
        let lockout = SignInLockout(database: database, secret: settings.secret)
        let refreshTokens = RefreshTokenStore(database: database, logger: logger)
        return Credentials(
            database: database,
            signIn: PasswordSignIn(
                database: database, lockout: lockout, passwords: passwords,
                emails: AccountEmails(cipher: settings.mail.outbox.cipher, secret: settings.secret),
                logger: logger),
            refreshTokens: refreshTokens, clients: settings.clients, issuer: AccessTokenIssuer(keys: ring),
            signingKeys: signingKeys,
            resets: PasswordResets(
                database: database, passwords: passwords, refreshTokens: refreshTokens, lockout: lockout,
                mail: settings.mail, clock: clock),
            passwords: passwords, clock: clock, logger: logger)
    }
}

/// Tokens as the `Token` and `IssueDeviceModeTokens` RPCs answer them.
struct IssuedTokens: Sendable {
    let accessToken: String
    let expiresIn: Int64
    /// None for `client_credentials`.
    let refreshToken: OpaqueToken?
    var mode: RefreshChainMode = .signIn
}

extension Credentials {
    /// The `password` grant: an access token and the first refresh token of a new chain.
    func passwordGrant(identifier: String, password: String) async throws -> IssuedTokens {
        let (account, subject) = try await signIn.signIn(identifier: identifier, password: password)
        return try await startChain(of: account, for: subject, mode: .signIn)
    }

    /// The `refresh_token` grant: rotates the token; the access token carries the account as it is now, in
    /// the mode of the chain (a child-mode chain refreshes to child-mode tokens only).
    func refreshGrant(_ presented: OpaqueToken) async throws -> IssuedTokens {
        let now = clock.now
        let rotation = try await refreshTokens.rotate(presented, now: now)
        guard case .rotated(let subject, let next, let mode) = rotation else {
            throw rotation == .sessionEnded
                ? IdentityError.deviceModeSessionEnded : IdentityError.refreshTokenInvalid
        }
        let (access, expiresIn) = await issuer.issue(
            for: subject, scope: mode.scope, at: now, notAfter: mode.sessionEndsAt,
            guardianPinMinor: mode.guardianPinMinor)
        return IssuedTokens(accessToken: access, expiresIn: expiresIn, refreshToken: next, mode: mode)
    }

    /// The `client_credentials` grant: an access token for a configured service or operator, no refresh token.
    func clientGrant(id: String, secret: String) async throws -> IssuedTokens {
        let client = try await clients.authenticate(id: id, secret: secret, passwords: passwords)
        let (access, expiresIn) = await issuer.issue(
            for: .client(client.id, role: client.role), at: clock.now)
        return IssuedTokens(accessToken: access, expiresIn: expiresIn, refreshToken: nil)
    }

    /// Revokes every refresh-token chain of `accountID`; returns how many were live.
    func signOutEverywhere(_ accountID: UserID) async throws -> Int {
        try await refreshTokens.revokeAll(of: accountID, on: database)
    }

    /// A new chain of `mode` for `account`, whose claims are `subject`: its first refresh token and an access
    /// token of its scope. A client has no chain, so only an account's id starts one.
    func startChain(of account: UserID, for subject: TokenSubject, mode: RefreshChainMode) async throws
        -> IssuedTokens
    {
        let refresh = try await refreshTokens.startChain(for: account, mode: mode)
        let (access, expiresIn) = await issuer.issue(
            for: subject, scope: mode.scope, at: clock.now, notAfter: mode.sessionEndsAt,
            guardianPinMinor: mode.guardianPinMinor)
        return IssuedTokens(accessToken: access, expiresIn: expiresIn, refreshToken: refresh, mode: mode)
    }
}
