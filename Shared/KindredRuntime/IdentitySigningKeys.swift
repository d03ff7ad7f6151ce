import KindredAPI
public import KindredAuth
import KindredMessages
public import KindredRPC
public import Logging
import Synchronization

/// The signing keys identity publishes through `GetSigningKeys`: where every service but identity gets the
/// keys that verify access tokens (`--identity-target`).
public final class IdentitySigningKeys: SigningKeySource {
    private let target: String
    private let fetchTimeout: Duration
    private let identity: Kindred_Identity_V1_IdentityService.Client
    private let logger: Logger
    private let lastKeyIDs = Mutex<Set<String>>([])

    /// A source asking the identity service at `target` (`host:port`); it connects on the first fetch. One
    /// fetch, retries of an unreachable identity included, may take `fetchTimeout`.
    public init(target: String, logger: Logger, fetchTimeout: Duration = .seconds(2)) throws(RPCError) {
        self.target = target
        self.fetchTimeout = fetchTimeout
        identity = Kindred_Identity_V1_IdentityService.Client(try RPCClient(target: target))
        self.logger = logger
    }

    public func verificationKeys() async throws -> [VerificationKey] {
        let response: Kindred_Identity_V1_GetSigningKeysResponse
        do {
            response = try await identity.getSigningKeys(
                .init(), options: CallOptions(timeout: fetchTimeout, idempotent: true))
        } catch {
            // RPCClient has already warned of an identity out of reach or out of time; say only what is news.
            if error.code != .unavailable && error.code != .deadlineExceeded {
                logger.warning(
                    "cannot fetch signing keys", metadata: ["identity": "\(target)", "error": "\(error)"])
            }
            throw error
        }
        let keys = response.keys.compactMap(usableKey)
        let keyIDs = Set(keys.map(\.keyID))
        let changed = lastKeyIDs.withLock { last in
            defer { last = keyIDs }
            return last != keyIDs
        }
        if changed {
            logger.info("signing keys loaded", metadata: ["kids": .array(keyIDs.sorted().map { "\($0)" })])
        }
        return keys
    }

    /// The verification key a published one describes; nil (and an error in the log) for one this verifier
    /// cannot use, so one bad entry does not stop the others from verifying.
    private func usableKey(_ published: Kindred_Identity_V1_SigningKey) -> VerificationKey? {
        guard published.alg == "EdDSA", let key = try? VerificationKey(publicKey: published.publicKey) else {
            logger.error(
                "identity published an unusable signing key",
                metadata: ["kid": "\(published.kid)", "alg": "\(published.alg)"])
            return nil
        }
        if key.keyID != published.kid {
            // The kid is derived from the key, never taken on trust: tokens naming the published one fail.
            logger.error(
                "identity published a kid that does not match its key",
                metadata: ["kid": "\(published.kid)", "derived": "\(key.keyID)"])
        }
        return key
    }
}
