/// The connections to one peer on one event loop, with exponential backoff between failed
/// connects. Confined to its loop: only touched on that loop's thread.
final class ClientConnectionPool: @unchecked Sendable {
    // @unchecked: shared through RPCClient's pool table, but every access runs on `loop`.
    /// Strong: the pool table is keyed by the loop's identity, which must not be reused while it exists.
    let loop: EventLoop
    let target: ConnectTarget
    let configuration: ClientConfiguration
    private var connections: [ClientConnection] = []
    private var failedConnects = 0
    private var retryAt: ContinuousClock.Instant?
    private var isClosed = false

    /// Streams a connection carries before the pool opens another (when it may).
    private static let spillLoad = 100

    init(loop: EventLoop, target: ConnectTarget, configuration: ClientConfiguration) {
        self.loop = loop
        self.target = target
        self.configuration = configuration
    }

    /// A connection for one more call: the least busy usable one, or a new one while the pool has
    /// room and the others are busy. Throws UNAVAILABLE while reconnecting is backing off.
    func connection() throws(RPCError) -> ClientConnection {
        guard !isClosed else { throw RPCError(.unavailable, "the client is closed") }
        let least = connections.filter(\.isUsable).min { $0.load < $1.load }
        if let least,
            connections.count >= configuration.connectionsPerLoop
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

    private func connect() throws(RPCError) -> ClientConnection {
        if let retryAt, ContinuousClock.now < retryAt {
            throw RPCError(.unavailable, "\(target) is unreachable; reconnecting after a backoff")
        }
        let connection: ClientConnection
        do {
            connection = try ClientConnection(target: target, loop: loop, configuration: configuration)
        } catch {
            connectFailed()
            throw error
        }
        // Weak: a closed client drops its pools while their connections finish.
        connection.onClose = { [weak self, unowned connection] connected in
            guard let self else { return }
            connections.removeAll { $0 === connection }
            if connected {
                failedConnects = 0
                retryAt = nil
            } else {
                connectFailed()
            }
        }
        connections.append(connection)
        return connection
    }

    private func connectFailed() {
        retryAt = ContinuousClock.now + configuration.backoff(after: failedConnects)
        failedConnects += 1
    }

    /// Stops new calls and lets each connection finish its open streams, then close.
    func close() {
        isClosed = true
        for connection in connections { connection.shutdown() }
    }
}
