import Synchronization

/// A server's flood cooling: the peer addresses cooling after a flood (`FloodCooling`), and the listener's
/// `SourceFilter` that has the kernel drop their connection attempts meanwhile, so an attacker reconnecting in a
/// loop costs the server no accept and no close. Calms come from every loop and the acceptor reads on its own,
/// so all of it is behind one lock, and the filter is applied under it: an older program can never replace a
/// newer one. The acceptor still refuses a cooling address the filter does not name (past its capacity, or
/// before the kernel applied it).
final class ListenerCooling: Sendable {
    private struct State {
        var cooling: FloodCooling
        /// The listening socket while it is open: nil before `listen(on:)` and once `stopListening()` ran, so a
        /// filter never lands on a descriptor number the system gave to something else.
        var listener: Int32?
        var filter = SourceFilter(refusing: [])
    }

    private let state: Mutex<State>
    let isEnabled: Bool

    init(base: Duration) {
        state = Mutex(State(cooling: FloodCooling(base: base)))
        isEnabled = base > .zero
    }

    /// The listener the filter goes on.
    func listen(on fd: Int32) {
        state.withLock { $0.listener = fd }
    }

    /// Called before the listener is closed.
    func stopListening() {
        state.withLock { $0.listener = nil }
    }

    /// A connection from `address` was calmed at `now`: the address cools, and the listener drops its connection
    /// attempts. Returns when its cooling ends, the time to `refresh` the filter; nil when cooling is off.
    func calmed(_ address: String, now: UInt64) -> UInt64? {
        guard isEnabled else { return nil }
        return state.withLock { state in
            state.cooling.calmed(address, now: now)
            Self.refilter(&state, now: now)
            return state.cooling.entries[address]?.until
        }
    }

    /// Whether a connection from `address`, accepted at `now`, is refused.
    func refuses(_ address: String, now: UInt64) -> Bool {
        guard isEnabled else { return false }
        return state.withLock { $0.cooling.refuses(address, now: now) }
    }

    /// Lets the addresses that have cooled by `now` connect again.
    func refresh(now: UInt64) {
        state.withLock { Self.refilter(&$0, now: now) }
    }

    /// Puts the addresses cooling at `now` in the listener's filter, if they changed. When the kernel refuses
    /// the program, the filter keeps what it had and the acceptor's check still refuses them.
    private static func refilter(_ state: inout State, now: UInt64) {
        let filter = SourceFilter(
            refusing: state.cooling.cooling(now: now).lazy.compactMap(SourceFilter.Address.init(peerAddress:))
        )
        guard filter != state.filter, let listener = state.listener, filter.apply(to: listener) else {
            return
        }
        state.filter = filter
    }
}
