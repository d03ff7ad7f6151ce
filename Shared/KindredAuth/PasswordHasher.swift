internal import CSodium
internal import KindredThreads

/// Argon2id password hashes (libsodium), computed on a few dedicated threads so that a burst of sign-ins
/// never blocks an event loop or Swift's cooperative pool.
///
/// A hash is libsodium's PHC string (`$argon2id$v=19$m=65536,t=2,p=1$salt$hash`): the parameters travel with
/// each hash, so raising the configured cost later only makes `verify` report `needsRehash` for older hashes.
///
/// ```swift
/// let hasher = PasswordHasher(cost: .standard, concurrency: 2)
/// let stored = try await hasher.hash(password)
/// switch try await hasher.verify(attempt, against: stored) {
/// case .match(let needsRehash): ...   // store `try await hasher.hash(attempt)` when needsRehash
/// case .mismatch: ...
/// }
/// ```
public final class PasswordHasher: Sendable {
    /// Argon2id's work factors.
    public struct Cost: Sendable, Hashable, CustomStringConvertible {
        /// Passes over memory (`t`).
        public var iterations: Int
        /// Memory per hash in KiB (`m`).
        public var memoryKiB: Int

        /// Creates a cost; libsodium accepts `iterations >= 1` and at least 8 KiB.
        public init(iterations: Int, memoryKiB: Int) {
            precondition(iterations >= 1 && memoryKiB >= 8, "Argon2id needs t >= 1 and m >= 8 KiB")
            self.iterations = iterations
            self.memoryKiB = memoryKiB
        }

        /// t=2, 64 MiB: chosen by measurement, see the identity service's README.
        public static let standard = Cost(iterations: 2, memoryKiB: 64 * 1024)
        /// The cheapest cost libsodium allows, for tests only: a real deployment must never use it.
        public static let testsOnly = Cost(iterations: 1, memoryKiB: 8)

        public var description: String { "argon2id t=\(iterations) m=\(memoryKiB)KiB" }
    }

    /// What checking a password against a stored hash found.
    public enum Verification: Sendable, Equatable {
        /// The password is right; when `needsRehash`, the stored hash used other parameters than the current
        /// cost and should be replaced by a new hash of the same password.
        case match(needsRehash: Bool)
        case mismatch
    }

    /// The cost new hashes are made with.
    public let cost: Cost
    private let threads: BlockingThreadPool
    // A hash of a password nobody has, verified when there is no account so that a miss costs as much as a hit.
    private let decoy: String

    /// A hasher running at most `concurrency` hashes at once and queueing at most `maxQueued` more.
    public init(cost: Cost, concurrency: Int, maxQueued: Int = 1_024) {
        precondition(concurrency >= 1, "a hasher needs at least one thread")
        Sodium.initialize()
        self.cost = cost
        threads = BlockingThreadPool(name: "password-hash", limit: concurrency, maxQueued: maxQueued)
        decoy = Self.computeHash(OpaqueToken.generate().text, cost: cost)!
    }

    /// A new hash of `password` under the current cost.
    public func hash(_ password: String) async throws(PasswordHasherError) -> String {
        let cost = cost
        let hash = try await onThreads { Self.computeHash(password, cost: cost) }
        guard let hash else { throw .outOfMemory }
        return hash
    }

    /// Checks `password` against a stored hash; a malformed stored hash is a mismatch.
    public func verify(_ password: String, against stored: String) async throws(PasswordHasherError)
        -> Verification
    {
        let cost = cost
        return try await onThreads {
            guard Self.matches(password, stored) else { return .mismatch }
            return .match(needsRehash: Self.needsRehash(stored, cost: cost))
        }
    }

    private func onThreads<Output: Sendable>(_ work: @escaping @Sendable () -> Output)
        async throws(PasswordHasherError)
        -> Output
    {
        do { return try await threads.run(work) } catch { throw .busy }
    }

    /// Spends the time of one verification and finds nothing: what a sign-in for an unknown account does,
    /// so that its answer takes as long as a wrong password for a real one.
    public func verifyAgainstDecoy(_ password: String) async throws(PasswordHasherError) {
        _ = try await verify(password, against: decoy)
    }
}

/// Why no hash was computed.
public enum PasswordHasherError: Error, Sendable, Equatable {
    /// More hashes are waiting than the hasher queues: the caller should retry later.
    case busy
    /// libsodium could not allocate the memory the cost asks for.
    case outOfMemory
}
