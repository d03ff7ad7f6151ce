internal import DequeModule

/// Tokens whose signature and claims have already been checked, so a repeat costs a hash and a lookup
/// instead of an Ed25519 verification (FACTS.md: ~150 µs, more than a whole cheap RPC).
///
/// Entries are keyed by a BLAKE2b-256 digest of the whole token, so only the exact bytes that were verified
/// ever match. Each entry is good until its token's expiry and remembers the key that signed it. When full,
/// expired entries go first, then the oldest. Not thread-safe by itself: `TokenVerifier` keeps it behind
/// its mutex. Only successes are ever stored.
struct VerifiedTokenCache {
    /// What a lookup found.
    enum Lookup {
        case verified(Caller)
        case expired
        case absent
    }

    private struct Entry {
        let caller: Caller
        let keyID: String
        /// The last second at which the token is still accepted (its expiry plus the verifier's leeway).
        let lastValidSecond: Int64
        let sequence: UInt64
    }

    /// The most entries held at once.
    let capacity: Int
    private var entries: [TokenDigest: Entry] = [:]
    // Digests in insertion order, oldest first. A record whose entry was removed, or replaced by a newer one
    // with another sequence number, is stale and skipped; `compact` drops stale records.
    private var insertionOrder = Deque<(digest: TokenDigest, sequence: UInt64)>()
    private var nextSequence: UInt64 = 0
    private var lastSweep = Int64.min

    init(capacity: Int) {
        precondition(capacity > 0, "a token cache needs room for at least one token")
        self.capacity = capacity
        entries.reserveCapacity(capacity)
    }

    /// How many tokens are cached.
    var count: Int { entries.count }

    /// The cached caller for `digest` if its token is still valid at `now`; an expired entry is dropped.
    mutating func lookup(_ digest: TokenDigest, now: Int64) -> Lookup {
        guard let entry = entries[digest] else { return .absent }
        guard now <= entry.lastValidSecond else {
            entries[digest] = nil
            return .expired
        }
        return .verified(entry.caller)
    }

    /// Remembers a verified token until `lastValidSecond`, making room first if the cache is full.
    mutating func insert(
        _ digest: TokenDigest, caller: Caller, keyID: String, lastValidSecond: Int64, now: Int64
    ) {
        guard entries[digest] == nil else { return }
        if entries.count >= capacity { makeRoom(now: now) }
        let sequence = nextSequence
        nextSequence += 1
        entries[digest] = Entry(
            caller: caller, keyID: keyID, lastValidSecond: lastValidSecond, sequence: sequence)
        insertionOrder.append((digest, sequence))
        if insertionOrder.count > 2 * capacity { compact() }
    }

    /// Drops every token signed by a key that is not in `keyIDs`.
    mutating func retainTokens(signedBy keyIDs: Set<String>) {
        entries = entries.filter { keyIDs.contains($0.value.keyID) }
    }

    private mutating func makeRoom(now: Int64) {
        // A sweep walks every entry, so it runs at most once per clock second; within that second a full
        // cache evicts its oldest entries instead.
        if now != lastSweep {
            lastSweep = now
            entries = entries.filter { now <= $0.value.lastValidSecond }
        }
        while entries.count >= capacity, let oldest = insertionOrder.popFirst() {
            if entries[oldest.digest]?.sequence == oldest.sequence {
                entries[oldest.digest] = nil
            }
        }
    }

    private mutating func compact() {
        insertionOrder = Deque(
            insertionOrder.filter { record in entries[record.digest]?.sequence == record.sequence })
    }
}
