/// The connections to one address of a target on one event loop, with exponential backoff between failed
/// connects. Confined to its loop, like the pool that holds it.
final class ClientSubchannel {
    let address: ResolvedAddress
    private unowned let pool: ClientConnectionPool
    private(set) var connections: [ClientConnection] = []
    private var failedConnects = 0
    private var retryAt: ContinuousClock.Instant?

    /// Streams a connection carries before the subchannel opens another (when it may).
    private static let spillLoad = 100

    init(address: ResolvedAddress, pool: ClientConnectionPool) {
        self.address = address
        self.pool = pool
    }

    /// Whether a connection is up and takes new streams.
    var isReady: Bool { connections.contains { $0.state == .ready && $0.isUsable } }

    /// Whether a connection that may take new streams is still connecting.
    var isConnecting: Bool { connections.contains { $0.state != .ready && $0.isUsable } }

    /// Whether no connection can take a call and none may be opened before the backoff passes.
    var isBackingOff: Bool {
        guard let retryAt else { return false }
        return !connections.contains(where: \.isUsable) && ContinuousClock.now < retryAt
    }

    /// Calls this address has taken on this loop: how the pool spread them (`RPCClient.callsPerAddress`).
    private(set) var callsTaken = 0

    /// A connection for one more call: the least busy usable one, or a new one while there is room and the
    /// others are busy. Throws UNAVAILABLE while reconnecting is backing off.
    func connection() throws(RPCError) -> ClientConnection {
        let chosen = try leastBusyConnection()
        callsTaken += 1
        return chosen
    }

    private func leastBusyConnection() throws(RPCError) -> ClientConnection {
        let least = connections.filter(\.isUsable).min { $0.load < $1.load }
        if let least,
            connections.count >= pool.configuration.connectionsPerLoop
                || least.load < min(Self.spillLoad, least.session.peerMaxConcurrentStreams)
        {
            return least
        }
        do {
            return try connect()
        } catch {
            if let least { return least }
            throw error
        }
    }

    /// Opens a connection unless one usable is already there or the backoff has not passed.
    func connectIfIdle() {
        guard !connections.contains(where: \.isUsable), !isBackingOff else { return }
        _ = try? connect()
    }

    private func connect() throws(RPCError) -> ClientConnection {
        if let retryAt, ContinuousClock.now < retryAt {
            throw RPCError(.unavailable, "\(address) is unreachable; reconnecting after a backoff")
        }
        let connection: ClientConnection
        do {
            connection = try ClientConnection(
                target: pool.addresses.target, address: address, loop: pool.loop,
                configuration: pool.configuration)
        } catch {
            connectFailed()
            throw error
        }
        // Weak: a retired subchannel's connections may outlive it while they finish their streams.
        connection.onClose = { [weak self, unowned connection] connected in
            guard let self else { return }
            connections.removeAll { $0 === connection }
            if connected {
                failedConnects = 0
                retryAt = nil
            } else {
                connectFailed()
            }
            pool.connectionEnded()
        }
        connection.onGoAway = { [weak self] in self?.pool.connectionEnded() }
        connections.append(connection)
        return connection
    }

    private func connectFailed() {
        retryAt = ContinuousClock.now + pool.configuration.backoff(after: failedConnects)
        failedConnects += 1
    }

    /// The address left the answer (or the client closed): no new calls; each connection finishes its
    /// streams, then closes.
    func retire() {
        for connection in connections {
            connection.onClose = nil
            connection.onGoAway = nil
            connection.shutdown()
        }
    }
}
