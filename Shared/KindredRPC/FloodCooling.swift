/// The addresses whose connections the flood guard calmed, and how long each one's new connections are refused:
/// `base` after the first calm, doubling with each calm while it cools (to 32 times `base`), so a peer that
/// reconnects to flood again is slowed down instead of served a fresh connection at once. A value without a
/// clock (times are monotonic nanoseconds passed in), holding at most `capacity` addresses.
struct FloodCooling {
    struct Entry: Equatable {
        var until: UInt64
        var strikes: Int
    }

    let base: UInt64
    let capacity: Int
    private(set) var entries: [String: Entry] = [:]

    init(base: Duration, capacity: Int = 1_024) {
        self.base = base.nanoseconds
        self.capacity = capacity
    }

    /// A connection from `address` was calmed at `now`: the address cools, longer if it was cooling already.
    mutating func calmed(_ address: String, now: UInt64) {
        guard base > 0 else { return }
        let strikes = entries[address].map { $0.until > now ? min($0.strikes + 1, 6) : 1 } ?? 1
        if entries[address] == nil && entries.count >= capacity { makeRoom(now: now) }
        entries[address] = Entry(until: now &+ base << (strikes - 1), strikes: strikes)
    }

    /// Whether a new connection from `address` at `now` is refused.
    func refuses(_ address: String, now: UInt64) -> Bool {
        coolingEnds(address, now: now) != nil
    }

    /// When `address` stops cooling, if it is cooling at `now`.
    func coolingEnds(_ address: String, now: UInt64) -> UInt64? {
        guard let entry = entries[address], entry.until > now else { return nil }
        return entry.until
    }

    /// Drops the addresses that have cooled; if none has, the one that cools first.
    private mutating func makeRoom(now: UInt64) {
        entries = entries.filter { $0.value.until > now }
        guard entries.count >= capacity, let first = entries.min(by: { $0.value.until < $1.value.until })
        else {
            return
        }
        entries[first.key] = nil
    }

    /// The address part of a peer (`ipv4:10.0.0.7:52110` is `ipv4:10.0.0.7`).
    static func address(ofPeer peer: String) -> String {
        guard let colon = peer.lastIndex(of: ":") else { return peer }
        return String(peer[..<colon])
    }
}
