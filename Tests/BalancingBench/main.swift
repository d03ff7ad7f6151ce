import Foundation
import KindredAPI
import KindredMessages
import KindredRPC
import Logging

// What balancing costs a call: grpc.health.v1.Health/Check through Kindred's client to one address, against the
// same client over a name that resolves to three (three servers on 127.0.0.2-4, one port, as the pods behind a
// headless Service), alternately in one run. Two loads: one caller (latency: the pick and the subchannel's
// bookkeeping on every call) and 64 callers at once (throughput; the three addresses also have three servers'
// loops behind them, so this row shows the spread more than the client's cost). Build with
// `swift build -c release --product BalancingBench`; the machine is shared, so compare the rows of one run.

/// Health/Check answered SERVING, the cheapest call there is: what is left is the client and the transport.
struct AlwaysServing: Grpc_Health_V1_Health.Service {
    let publicMethods = MethodSet.all

    func check(_ request: Grpc_Health_V1_HealthCheckRequest, context: ServerContext) async throws
        -> Grpc_Health_V1_HealthCheckResponse
    {
        Grpc_Health_V1_HealthCheckResponse(status: .serving)
    }

    func watch(
        _ request: Grpc_Health_V1_HealthCheckRequest,
        responses: ResponseStreamWriter<Grpc_Health_V1_HealthCheckResponse>, context: ServerContext
    ) async throws {
        try await responses.write(.init(status: .serving))
    }
}

/// The name's answer: every server's address.
struct Fleet: NameResolver {
    let addresses: [ResolvedAddress]

    func resolve(host: String, port: UInt16) async throws(RPCError) -> [ResolvedAddress] { addresses }
}

let seconds = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 3
let rounds = 5
var logger = Logger(label: "balancing-bench")
logger.logLevel = .critical
let hosts = ["127.0.0.2", "127.0.0.3", "127.0.0.4"]
var servers: [RPCServer] = []
for host in hosts {
    var configuration = ServerConfiguration(host: host, port: servers.first?.port ?? 0)
    configuration.eventLoopCount = 1
    servers.append(
        try RPCServer.bind(configuration: configuration, services: [AlwaysServing()], logger: logger))
}
let runners = servers.map { server in Task { try await server.run() } }
let port = servers[0].port
var balanced = ClientConfiguration()
balanced.resolver = Fleet(addresses: hosts.map { ResolvedAddress(numericHost: $0, port: UInt16(port))! })
let clients = [
    ("1 address", try RPCClient(target: "127.0.0.2:\(port)")),
    ("3 addresses", try RPCClient(target: "replicas.bench:\(port)", configuration: balanced)),
]

/// Calls made by `callers` tasks in `seconds`, each calling as soon as its last call answered.
func run(_ client: RPCClient, callers: Int) async -> Int {
    let health = Grpc_Health_V1_Health.Client(client)
    let end = ContinuousClock.now + .seconds(seconds)
    return await withTaskGroup(of: Int.self) { group in
        for _ in 0..<callers {
            group.addTask {
                var calls = 0
                while ContinuousClock.now < end {
                    _ = try? await health.check(.init())
                    calls += 1
                }
                return calls
            }
        }
        return await group.reduce(0, +)
    }
}

for (_, client) in clients { _ = await run(client, callers: 4) }  // connections open, code warm
print("| target | callers | median µs a call | median calls/s |")
print("|---|---|---|---|")
for callers in [1, 64] {
    var results: [String: [Double]] = [:]
    for _ in 0..<rounds {
        for (name, client) in clients {
            results[name, default: []].append(Double(await run(client, callers: callers)) / Double(seconds))
        }
    }
    for (name, _) in clients {
        let rate: Double = results[name]!.sorted()[rounds / 2]
        let micros: Double = Double(callers) * 1e6 / rate
        let cost = String(format: "%.1f", micros)
        print("| \(name) | \(callers) | \(cost) | \(Int(rate)) |")
    }
}
for (_, client) in clients { client.close() }
for server in servers { server.beginGracefulShutdown(drainTimeout: .seconds(1)) }
for runner in runners { _ = try? await runner.value }
