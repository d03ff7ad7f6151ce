import Synchronization

/// A `TokenVerifier` that gets its keys from a `SigningKeySource`: loaded on first use, refreshed when a
/// token names a key it does not know, so a rotation at identity is picked up without a restart.
///
/// Refreshes are single-flight (every call that needs one waits for the same fetch) and start at most once
/// per `refreshInterval`, so a flood of tokens naming made-up keys costs identity one call per interval.
/// A token whose key is already loaded never waits: `verifyWithLoadedKeys` is synchronous and, for a token
/// seen before, a hash and a cache lookup.
///
/// ```swift
/// let authenticator = TokenAuthenticator(keySource: IdentitySigningKeys(...))
/// let caller = try await authenticator.authenticate(token)   // throws TokenAuthenticationError
/// ```
public final class TokenAuthenticator: Sendable {
    /// The least time between two key fetches, by default.
    public static let defaultRefreshInterval: Duration = .seconds(5)

    let verifier: TokenVerifier
    let keySource: any SigningKeySource
    /// The least time between the starts of two key fetches.
    public let refreshInterval: Duration

    struct RefreshState {
        /// The fetch under way, which every caller needing fresh keys awaits.
        var inFlight: Task<Bool, Never>?
        /// When the last fetch started.
        var lastStart: ContinuousClock.Instant?
        /// Whether the last finished fetch loaded the keys.
        var lastSucceeded = false
    }

    let refreshState = Mutex(RefreshState())

    /// Creates an authenticator with no keys yet; the first token that needs them loads them.
    public init(
        keySource: any SigningKeySource, refreshInterval: Duration = defaultRefreshInterval,
        clock: TokenClock = .system, leeway: Duration = TokenVerifier.defaultLeeway,
        cacheCapacity: Int = TokenVerifier.defaultCacheCapacity
    ) {
        precondition(refreshInterval >= .zero, "a negative refresh interval makes no sense")
        self.keySource = keySource
        self.refreshInterval = refreshInterval
        verifier = TokenVerifier(keys: [], clock: clock, leeway: leeway, cacheCapacity: cacheCapacity)
    }

    /// Judges `token` with the keys already loaded, without suspending.
    ///
    /// `.unknownKeyID` means only fresh keys can decide (and before the first load every key is unknown):
    /// call `authenticate(_:)` for that.
    public func verifyWithLoadedKeys(_ token: Substring) -> Result<Caller, TokenVerificationError> {
        do {
            return .success(try verifier.verify(token))
        } catch {
            return .failure(error)
        }
    }

    /// The caller `token` names, loading or refreshing the keys first if it names a key not loaded yet.
    public func authenticate(_ token: Substring) async throws(TokenAuthenticationError) -> Caller {
        switch verifyWithLoadedKeys(token) {
        case .success(let caller): return caller
        case .failure(.unknownKeyID): break
        case .failure(let reason): throw .refused(reason)
        }
        guard await refreshKeys() else { throw .keysUnavailable }
        switch verifyWithLoadedKeys(token) {
        case .success(let caller): return caller
        case .failure(let reason): throw .refused(reason)
        }
    }
}
