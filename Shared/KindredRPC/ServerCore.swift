import KindredMetrics
import Logging
import Synchronization

/// What every loop of one server shares: configuration, routes, logger and the connection count.
final class ServerCore: Sendable {
    let configuration: ServerConfiguration
    let routes: [String: Route]
    let logger: Logger
    let accessLog: AccessLog
    /// The listener's TLS credentials; nil for h2c.
    let tls: ServerTLS?
    /// Per method path, the certificate names that may call it: `PeerRule`s, only under mutual TLS.
    let peerRules: [String: Set<String>]
    /// Prefixes generated request ids so they are unique across restarts.
    let requestIDPrefix: String
    private let connectionCount = Atomic<Int>(0)
    /// Every route's metrics, by method, and those of calls to no route.
    let methodMetrics: [MethodMetrics]
    let unroutedMetrics = MethodMetrics(method: "unknown")
    /// Unary calls refused because their loop was at its admission limit.
    let shedCalls = AtomicCounters(count: 1)
    /// The answer to a call refused at its loop's limit, made once.
    let overloadRefusal: OverloadRefusal
    /// Each event loop's admission limit as its last admitted call left it (0 before its first), for the gauge.
    let admissionLimits: AtomicCounters
    /// The addresses cooling after a flood; touched only when a connection is calmed and when one is accepted.
    let floodCooling: Mutex<FloodCooling>

    init(configuration: ServerConfiguration, routes: [String: Route], tls: ServerTLS?, logger: Logger) {
        self.configuration = configuration
        self.tls = tls
        var peerRules: [String: Set<String>] = [:]
        if let settings = configuration.tls, settings.requiresClientCertificates {
            for rule in settings.peerRules {
                for path in rule.methods { peerRules[path, default: []].formUnion(rule.allowedNames) }
            }
        }
        self.peerRules = peerRules
        self.routes = routes.mapValues { route in
            var counted = route
            counted.metrics = MethodMetrics(method: route.descriptor.path)
            return counted
        }
        methodMetrics = self.routes.values.map(\.metrics).sorted { $0.method < $1.method }
        self.logger = logger
        accessLog = AccessLog(logger: logger, settings: configuration.accessLog)
        requestIDPrefix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        floodCooling = Mutex(FloodCooling(base: configuration.floodCooling))
        admissionLimits = AtomicCounters(count: max(1, configuration.eventLoopCount))
        overloadRefusal = OverloadRefusal(retryAfter: configuration.admission.retryAfter)
    }

    /// Counts a new connection if the limit allows; false means refuse it.
    func reserveConnection() -> Bool {
        if connectionCount.add(1, ordering: .relaxed).newValue <= configuration.maxConnections { return true }
        connectionCount.subtract(1, ordering: .relaxed)
        return false
    }

    var openConnections: Int { connectionCount.load(ordering: .relaxed) }

    func connectionClosed() {
        connectionCount.subtract(1, ordering: .relaxed)
    }
}
