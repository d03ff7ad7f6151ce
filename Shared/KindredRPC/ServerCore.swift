import Logging
import Synchronization

/// What every loop of one server shares: configuration, routes, logger and the connection count.
final class ServerCore: Sendable {
    let configuration: ServerConfiguration
    let routes: [String: Route]
    let logger: Logger
    /// Prefixes generated request ids so they are unique across restarts.
    let requestIDPrefix: String
    private let connectionCount = Atomic<Int>(0)

    init(configuration: ServerConfiguration, routes: [String: Route], logger: Logger) {
        self.configuration = configuration
        self.routes = routes
        self.logger = logger
        requestIDPrefix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
    }

    /// Counts a new connection if the limit allows; false means refuse it.
    func reserveConnection() -> Bool {
        if connectionCount.add(1, ordering: .relaxed).newValue <= configuration.maxConnections { return true }
        connectionCount.subtract(1, ordering: .relaxed)
        return false
    }

    func connectionClosed() {
        connectionCount.subtract(1, ordering: .relaxed)
    }
}
