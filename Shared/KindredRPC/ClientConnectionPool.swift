/// A client's connections on one event loop: a subchannel per address its target resolves to. Confined to
/// its loop: only touched on that loop's thread.
///
/// Calls go round robin over the addresses with a ready connection. Not "fewest streams in flight": a pool
/// sees only its own loop's calls, and those are mostly short unary calls, so every connection would show
/// zero most of the time and the first address would take nearly everything; round robin spreads them
/// evenly whatever they last. Within an address, the least busy connection takes the call.
final class ClientConnectionPool: @unchecked Sendable {
    // @unchecked: shared through RPCClient's pool table, but every access runs on `loop`.
    /// Strong: the pool table is keyed by the loop's identity, which must not be reused while it exists.
    let loop: EventLoop
    let addresses: TargetAddresses
    let configuration: ClientConfiguration
    private var subchannels: [ClientSubchannel] = []
    /// The answer `subchannels` follow (0: none yet).
    private var generation = 0
    private var nextPick = 0
    /// Set when an address may lack a connection (a new answer, a connection that ended or was told
    /// GOAWAY): the next call opens what is missing.
    private var needsConnects = false
    private var isClosed = false
    /// Calls taken by the subchannels of addresses that left the answer, by address.
    private var retiredCalls: [ResolvedAddress: Int] = [:]

    init(loop: EventLoop, addresses: TargetAddresses, configuration: ClientConfiguration) {
        self.loop = loop
        self.addresses = addresses
        self.configuration = configuration
    }

    /// A connection for one more call. A target with one address costs what it always did, and one atomic
    /// load. Throws UNAVAILABLE when no address can take it (each is backing off).
    func connection() throws(RPCError) -> ClientConnection {
        loop.assertInLoop()
        guard !isClosed else { throw RPCError(.unavailable, "the client is closed") }
        if generation != addresses.generation.load(ordering: .acquiring) { followAnswer() }
        if subchannels.count == 1 { return try subchannels[0].connection() }
        return try balancedConnection()
    }

    private func balancedConnection() throws(RPCError) -> ClientConnection {
        if needsConnects { connectMissing() }
        let count = subchannels.count
        guard count > 0 else { throw RPCError(.unavailable, "cannot resolve \(addresses.target.host)") }
        for step in 0..<count {
            let index = (nextPick + step) % count
            if subchannels[index].isReady {
                nextPick = index + 1
                return try subchannels[index].connection()
            }
        }
        // None ready: wait on one that is connecting, else try each address not backing off. A call whose
        // connect then fails is sent again (it never left), and the failed address is backing off by then.
        if let connecting = subchannels.first(where: \.isConnecting) { return try connecting.connection() }
        var lastError = RPCError(
            .unavailable, "\(addresses.target) is unreachable; reconnecting after a backoff")
        for subchannel in subchannels where !subchannel.isBackingOff {
            do { return try subchannel.connection() } catch { lastError = error }
        }
        throw lastError
    }

    /// Opens a connection to every address that has none and is not backing off.
    private func connectMissing() {
        for subchannel in subchannels { subchannel.connectIfIdle() }
        needsConnects = subchannels.contains { !$0.connections.contains(where: \.isUsable) }
    }

    /// Takes the latest answer: keeps the subchannels of addresses still in it, adds the new ones (connected
    /// on the next call) and retires the rest, whose calls in flight finish where they are.
    private func followAnswer() {
        let (current, generation) = addresses.snapshot()
        self.generation = generation
        var kept: [ClientSubchannel] = []
        for address in current {
            kept.append(
                subchannels.first { $0.address == address } ?? ClientSubchannel(address: address, pool: self))
        }
        for subchannel in subchannels where !current.contains(subchannel.address) {
            retiredCalls[subchannel.address, default: 0] += subchannel.callsTaken
            subchannel.retire()
        }
        subchannels = kept
        needsConnects = kept.count > 1
    }

    /// A connection closed or was told GOAWAY: open what is missing on the next call, and ask the resolver
    /// again, since the server may be leaving or others may have arrived.
    func connectionEnded() {
        loop.assertInLoop()
        guard !isClosed else { return }
        needsConnects = subchannels.count > 1
        addresses.refreshSoon()
    }

    /// Calls each address took from this pool, including addresses that left the answer.
    func callsPerAddress() -> [ResolvedAddress: Int] {
        subchannels.reduce(into: retiredCalls) { $0[$1.address, default: 0] += $1.callsTaken }
    }

    /// Stops new calls and lets each connection finish its open streams, then close.
    func close() {
        loop.assertInLoop()
        isClosed = true
        for subchannel in subchannels { subchannel.retire() }
    }
}
