import KindredRuntime
import KindredAuth
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
                database: database, lockout: lockout, passwords: passwords, logger: logger),
            refreshTokens: refreshTokens, clients: settings.clients, issuer: AccessTokenIssuer(keys: ring),
            signingKeys: signingKeys,
            resets: PasswordResets(
                database: database, passwords: passwords, refreshTokens: refreshTokens, lockout: lockout,
                mail: settings.mail, clock: clock),
            passwords: passwords, logger: logger)
    }
}

/// Tokens as the `Token` RPC answers them.
struct IssuedTokens: Sendable {
    let accessToken: String
    let expiresIn: Int64
    /// None for `client_credentials`.
    let refreshToken: OpaqueToken?
}

extension Credentials {
    /// The `password` grant: an access token and the first refresh token of a new chain.
    func passwordGrant(identifier: String, password: String) async throws -> IssuedTokens {
        let subject = try await signIn.signIn(identifier: identifier, password: password)
        let refresh = try await refreshTokens.startChain(for: subject.subject)
        let (access, expiresIn) = await issuer.issue(for: subject)
        return IssuedTokens(accessToken: access, expiresIn: expiresIn, refreshToken: refresh)
    }

    /// The `refresh_token` grant: rotates the token; the access token carries the account as it is now.
    func refreshGrant(_ presented: OpaqueToken) async throws -> IssuedTokens {
        guard case .rotated(let accountID, let next) = try await refreshTokens.rotate(presented),
            let subject = try await AccountStore.tokenSubject(id: accountID, on: database)
        else { throw IdentityError.refreshTokenInvalid }
        let (access, expiresIn) = await issuer.issue(for: subject)
        return IssuedTokens(accessToken: access, expiresIn: expiresIn, refreshToken: next)
    }

    /// The `client_credentials` grant: an access token for a configured service or operator, no refresh token.
    func clientGrant(id: String, secret: String) async throws -> IssuedTokens {
        let client = try await clients.authenticate(id: id, secret: secret, passwords: passwords)
        let (access, expiresIn) = await issuer.issue(for: .client(client.id, role: client.role))
        return IssuedTokens(accessToken: access, expiresIn: expiresIn, refreshToken: nil)
    }

    /// Revokes every refresh-token chain of `accountID`; returns how many were live.
    func signOutEverywhere(_ accountID: String) async throws -> Int {
        try await refreshTokens.revokeAll(of: accountID, on: database)
    }
}
