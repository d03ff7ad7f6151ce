import Synchronization

@testable import KindredRPC

/// A resolver whose answer the test sets and changes, counting the lookups it answered.
final class ScriptedResolver: NameResolver {
    private let answer: Mutex<[ResolvedAddress]>
    let lookups = Atomic<Int>(0)

    init(_ addresses: [ResolvedAddress]) {
        answer = Mutex(addresses)
    }

    func answer(_ addresses: [ResolvedAddress]) {
        answer.withLock { $0 = addresses }
    }

    func resolve(host: String, port: UInt16) async throws(RPCError) -> [ResolvedAddress] {
        lookups.add(1, ordering: .relaxed)
        return answer.withLock { $0 }
    }
}

/// The errors of calls that should all have succeeded.
final class CallFailures: Sendable {
    private let errors = Mutex<[RPCError]>([])

    func record(_ error: RPCError) {
        errors.withLock { $0.append(error) }
    }

    var all: [RPCError] { errors.withLock { $0 } }
}

/// Test servers of one service on several loopback addresses (Linux routes all of 127/8 to loopback), on
/// the same port, as the pods behind a headless Service are.
struct LoopbackFleet {
    private(set) var servers: [ClientTestServer] = []
    let port: Int

    /// Starts a server on each of `hosts`, all on one port (the first one's ephemeral port).
    init(_ hosts: [String], configure: @escaping (inout ServerConfiguration) -> Void = { _ in }) throws {
        let first = try ClientTestServer(host: hosts[0], configure: configure)
        port = first.port
        servers = [first]
        for host in hosts.dropFirst() { try add(host, configure: configure) }
    }

    /// Starts one more server on `host`, same port.
    mutating func add(_ host: String, configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        servers.append(try ClientTestServer(host: host, port: port, configure: configure))
    }

    var addresses: [ResolvedAddress] {
        servers.map { ResolvedAddress(numericHost: $0.host, port: UInt16($0.port))! }
    }

    /// Unary calls each server has answered, in start order.
    var served: [Int] { servers.map { $0.observations.unaryCalls.load(ordering: .relaxed) } }

    func stop() async {
        for server in servers { await server.stop() }
    }
}

/// A client of a host name (so the injected resolver answers for it) on `port`.
func balancingClient(
    _ resolver: any NameResolver, port: Int, configure: (inout ClientConfiguration) -> Void = { _ in }
) throws -> RPCClient {
    var configuration = ClientConfiguration.tests
    configuration.resolver = resolver
    // Longer than any test: every re-resolution a test sees comes from an event, not the timer.
    configuration.resolveInterval = .seconds(3_600)
    configure(&configuration)
    return try RPCClient(target: "service.test:\(port)", configuration: configuration)
}
