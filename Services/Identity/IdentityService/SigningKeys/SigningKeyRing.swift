import KindredAuth
import Logging
import Synchronization

/// The signer this instance issues tokens with. A rotation made anywhere (another instance, or
/// `kindred-identity keys rotate`) is picked up at the first signing after `refreshInterval` has passed since
/// the last look at the table: one caller re-reads the signer's key id while the others keep signing.
final class SigningKeyRing: Sendable {
    /// How stale the signer may get; `SigningKeyStore.retirement` allows for it.
    static let refreshInterval: Duration = .seconds(30)

    private struct State {
        var signer: TokenSigner
        var checkedAt: ContinuousClock.Instant
        var refreshing = false
    }

    private let store: SigningKeyStore
    private let refreshInterval: Duration
    private let logger: Logger
    private let state: Mutex<State>

    private init(store: SigningKeyStore, signer: TokenSigner, refreshInterval: Duration, logger: Logger) {
        self.store = store
        self.refreshInterval = refreshInterval
        self.logger = logger
        state = Mutex(State(signer: signer, checkedAt: .now))
    }

    /// Makes sure a signing key exists (creating the first one), opens it, and starts the ring with it.
    static func load(
        store: SigningKeyStore, refreshInterval: Duration = refreshInterval, logger: Logger
    ) async throws -> SigningKeyRing {
        try await store.ensureSigner()
        guard let key = try await store.signer(unless: nil).key else { throw SigningKeyError.noSigner }
        return SigningKeyRing(
            store: store, signer: TokenSigner(key: key), refreshInterval: refreshInterval, logger: logger)
    }

    /// The signer for a new token, refreshed first when the last look at the table is too old.
    func signer() async -> TokenSigner {
        let (signer, due) = state.withLock { state -> (TokenSigner, Bool) in
            let due = !state.refreshing && ContinuousClock.now - state.checkedAt >= refreshInterval
            if due { state.refreshing = true }
            return (state.signer, due)
        }
        guard due else { return signer }
        return await refresh(from: signer)
    }

    private func refresh(from current: TokenSigner) async -> TokenSigner {
        var next = current
        do {
            let (keyID, key) = try await store.signer(unless: current.key.keyID)
            if let key {
                next = TokenSigner(key: key)
                logger.info("signing with a new key", metadata: ["kid": "\(keyID)"])
            }
        } catch {
            // Keep signing with the key we have: it stays valid for `SigningKeyStore.retirement` anyway.
            logger.error("cannot re-read the signing key", metadata: ["error": "\(error)"])
        }
        return state.withLock { state in
            state.signer = next
            state.checkedAt = .now
            state.refreshing = false
            return next
        }
    }
}
