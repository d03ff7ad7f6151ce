import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
import Logging
@testable import SocialService
import Testing

/// A peer's failure as social's caller hears it over the wire: a status and a plain sentence, never the
/// peer's words, which stay in social's access line as the cause; a peer out of reach is warned of once.
@Suite(.timeLimit(.minutes(1))) struct PeerFailureWireTests {
    @Test func aPeersRefusalOfSocialIsInternalToTheCallerAndTheLogKeepsThePeersWords() async throws {
        let family = try await Served([StandIn()], log: CapturedLog())
        let log = CapturedLog()
        let social = try await Served([Relay(target: family.target, log: log)], log: log)
        let answer = await social.call()
        #expect(answer?.code == .internal)
        #expect(answer?.message == RPCError.internalMessage)
        let line = try #require(log.lines("call").first)
        #expect(line.fields["status"] == "INTERNAL")
        #expect(line.fields["cause"]?.contains("the family service answered") == true)
        #expect(line.fields["cause"]?.contains(StandIn.words) == true)
        #expect(log.lines("peer call failed").isEmpty, "a refusal is the peer's word, not an outage")
        await social.stop()
        await family.stop()
    }

    @Test func aPeerOutOfReachIsUnavailableToTheCallerAndWarnedOfOnce() async throws {
        let log = CapturedLog()
        let social = try await Served([Relay(target: "127.0.0.1:\(try freePort())", log: log)], log: log)
        let answer = await social.call()
        #expect(answer?.code == .unavailable)
        #expect(answer?.message == RPCError.unavailableMessage)
        let line = try #require(log.lines("call").first)
        #expect(line.fields["cause"]?.contains("the family service answered UNAVAILABLE") == true)
        let warnings = log.lines("peer call failed")
        #expect(warnings.count == 1)
        #expect(warnings.first?.fields["rpc"] == StandIn.method.path)
        await social.stop()
    }
}

/// Family as a test stands it in: it refuses social with words of its own.
private struct StandIn: RPCService {
    static let method = MethodDescriptor(service: "test.Family", method: "GetControls")
    static let words = "client social lacks the scope family.controls.read"
    let publicMethods = MethodSet.all

    func registerMethods(with router: inout RPCRouter) {
        router.registerUnary(Self.method) {
            (_: Grpc_Health_V1_HealthCheckRequest, _) -> Grpc_Health_V1_HealthCheckResponse in
            throw RPCError(.failedPrecondition, Self.words)
        }
    }
}

/// Social's side: one method that asks family through `PeerCall`, as every part of social does.
private struct Relay: RPCService {
    static let method = MethodDescriptor(service: "test.Social", method: "Relay")
    let client: RPCClient
    let publicMethods = MethodSet.all

    init(target: String, log: CapturedLog) throws {
        var configuration = ClientConfiguration()
        configuration.logger = log.logger()
        configuration.maxAttempts = 2
        configuration.initialBackoff = .milliseconds(10)
        client = try RPCClient(target: target, configuration: configuration)
    }

    func registerMethods(with router: inout RPCRouter) {
        let client = client
        router.registerUnary(Self.method) {
            (request: Grpc_Health_V1_HealthCheckRequest, _) -> Grpc_Health_V1_HealthCheckResponse in
            try await PeerCall.run("family") {
                try await client.unary(
                    method: StandIn.method, request: request,
                    options: CallOptions(timeout: .seconds(5), idempotent: true))
            }
        }
    }
}

/// A server on a free loopback port, logging to a captured log.
private struct Served {
    let server: RPCServer
    let serving: Task<Void, any Error>

    init(_ services: [any RPCService], log: CapturedLog) async throws {
        server = try RPCServer.bind(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0), services: services,
            logger: log.logger())
        let server = server
        serving = Task { try await server.run() }
    }

    var target: String { "127.0.0.1:\(server.port)" }

    /// Calls `Relay` as social's own caller would, and returns the answer it got.
    func call() async -> RPCError? {
        guard let client = try? RPCClient(target: target) else { return nil }
        defer { client.close() }
        return await rpcError {
            let _: Grpc_Health_V1_HealthCheckResponse = try await client.unary(
                method: Relay.method, request: Grpc_Health_V1_HealthCheckRequest())
        }
    }

    func stop() async {
        server.beginGracefulShutdown(drainTimeout: .seconds(1))
        _ = try? await serving.value
    }
}
