import Synchronization

#if canImport(Glibc)
internal import Glibc
#endif

/// Checks access tokens locally with the identity service's public keys and turns them into a `Caller`.
///
/// Thread-safe; one per process is enough. Successful verifications are cached until their token expires,
/// so a client that sends the same token on every call pays for one Ed25519 verification, not one per call.
/// Replacing the keys drops cached tokens signed by any key that is no longer present.
///
/// ```swift
/// let verifier = TokenVerifier(keys: try response.keys.map { try VerificationKey(publicKey: $0.publicKey) })
/// let caller = try verifier.verify(bearerToken)   // throws TokenVerificationError
/// ```
public final class TokenVerifier: Sendable {
    /// How many verified tokens are cached by default: one for each active user of a busy instance.
    public static let defaultCacheCapacity = 16_384
    /// Clock skew tolerated between the issuer and this process, in whole seconds.
    public static let defaultLeeway: Duration = .seconds(60)

    struct State {
        var keys: [String: VerificationKey]
        var cache: VerifiedTokenCache
    }

    let state: Mutex<State>
    let clock: TokenClock
    let leewaySeconds: Int64
    // Called before every Ed25519 verification, so tests can tell a cache hit from a real check.
    let signatureCheckObserver: (@Sendable () -> Void)?

    /// Creates a verifier that accepts tokens signed by any of `keys`.
    public convenience init(
        keys: [VerificationKey], clock: TokenClock = .system, leeway: Duration = defaultLeeway,
        cacheCapacity: Int = defaultCacheCapacity
    ) {
        self.init(
            keys: keys, clock: clock, leeway: leeway, cacheCapacity: cacheCapacity,
            signatureCheckObserver: nil)
    }

    init(
        keys: [VerificationKey], clock: TokenClock, leeway: Duration, cacheCapacity: Int,
        signatureCheckObserver: (@Sendable () -> Void)?
    ) {
        precondition(leeway >= .zero, "a negative leeway would refuse tokens before they expire")
        Sodium.initialize()
        state = Mutex(State(keys: Self.index(keys), cache: VerifiedTokenCache(capacity: cacheCapacity)))
        self.clock = clock
        leewaySeconds = leeway.components.seconds
        self.signatureCheckObserver = signatureCheckObserver
    }

    /// The key ids tokens may currently name.
    public var keyIDs: Set<String> {
        state.withLock { Set($0.keys.keys) }
    }

    /// Atomically replaces the accepted keys, for example after fetching `GetSigningKeys` again.
    ///
    /// Tokens signed by a key that is still present stay cached; those signed by a removed key are
    /// dropped, so they are refused from the next call on.
    public func replaceKeys(_ keys: [VerificationKey]) {
        let indexed = Self.index(keys)
        state.withLock { state in
            state.keys = indexed
            state.cache.retainTokens(signedBy: Set(indexed.keys))
        }
    }

    /// The caller a valid token names, or why the token is refused.
    public func verify(_ token: String) throws(TokenVerificationError) -> Caller {
        var token = token
        return try token.withUTF8 { verify(utf8: UnsafeRawBufferPointer($0)) }.get()
    }

    /// The caller a valid token names, for a token read out of a longer text (an `authorization` header).
    public func verify(_ token: Substring) throws(TokenVerificationError) -> Caller {
        var token = token
        return try token.withUTF8 { verify(utf8: UnsafeRawBufferPointer($0)) }.get()
    }

    private func verify(utf8 token: UnsafeRawBufferPointer) -> Result<Caller, TokenVerificationError> {
        guard token.count <= Self.maximumTokenLength else { return .failure(.malformed) }
        let digest = TokenDigest(hashing: token)
        let now = clock.now
        switch state.withLock({ $0.cache.lookup(digest, now: now) }) {
        case .verified(let caller): return .success(caller)
        case .expired: return .failure(.expired)
        case .absent: break
        }
        let verified: VerifiedToken
        switch verifySignatureAndClaims(of: token, now: now) {
        case .success(let token): verified = token
        case .failure(let error): return .failure(error)
        }
        let caller = Caller(claims: verified.claims)
        state.withLock { state in
            // The keys may have been replaced while the signature was checked: only cache what the
            // current keys still vouch for.
            guard state.keys[verified.key.keyID] == verified.key else { return }
            state.cache.insert(
                digest, caller: caller, keyID: verified.key.keyID,
                lastValidSecond: verified.claims.expiresAt + leewaySeconds - 1, now: now)
        }
        return .success(caller)
    }

    private static func index(_ keys: [VerificationKey]) -> [String: VerificationKey] {
        Dictionary(keys.map { ($0.keyID, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// Where a verifier reads the time, in whole seconds since the Unix epoch; tests pass a fixed one.
public struct TokenClock: Sendable {
    private let read: @Sendable () -> Int64

    /// A clock that reads `now()`.
    public init(now: @escaping @Sendable () -> Int64) {
        read = now
    }

    /// The system's real-time clock.
    public static let system = TokenClock {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec)
    }

    /// The current time.
    public var now: Int64 { read() }
}
