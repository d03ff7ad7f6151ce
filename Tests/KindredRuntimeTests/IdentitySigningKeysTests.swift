import KindredAPI
import KindredAuth
import KindredMessages
import KindredRPC
import Logging
import Synchronization
import Testing

@testable import KindredRuntime

/// Identity's `GetSigningKeys` as the other services see it: only that method, publishing what the test says.
final class PublishingIdentity: RPCService {
    let published = Mutex<[Kindred_Identity_V1_SigningKey]>([])
    let publicMethods = MethodSet.all

    func publish(_ keys: [SigningKey]) {
        published.withLock { published in
            published = keys.map {
                .init(kid: $0.keyID, alg: "EdDSA", publicKey: $0.verificationKey.publicKey)
            }
        }
    }

    func registerMethods(with router: inout RPCRouter) {
        router.registerUnary(Kindred_Identity_V1_IdentityService.Method.getSigningKeys) {
            (_: Kindred_Identity_V1_GetSigningKeysRequest, _) in
            Kindred_Identity_V1_GetSigningKeysResponse(keys: self.published.withLock { $0 })
        }
    }
}

/// `test.Protected/Check`: a method of a service other than identity, protected by default.
struct ProtectedService: RPCService {
    static let check = MethodDescriptor(service: "test.Protected", method: "Check", readOnly: true)

    func registerMethods(with router: inout RPCRouter) {
        router.registerUnary(Self.check) { (_: Grpc_Health_V1_HealthCheckRequest, context) in
            _ = try context.authenticatedCaller()
            return Grpc_Health_V1_HealthCheckResponse(status: .serving)
        }
    }
}

/// Serves `services` on an ephemeral port, with `authenticator`, until `stop`.
struct RunningServer {
    let server: RPCServer
    let task: Task<Void, any Error>
    let client: RPCClient

    init(_ services: [any RPCService], authenticator: TokenAuthenticator? = nil) throws {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.eventLoopCount = 1
        configuration.authenticator = authenticator
        server = try RPCServer.bind(
            configuration: configuration, services: services, logger: Logger(label: "identity-keys-test"))
        let server = server
        task = Task { try await server.run() }
        client = try RPCClient(target: "127.0.0.1:\(server.port)")
    }

    var target: String { "127.0.0.1:\(server.port)" }

    func stop() async throws {
        client.close()
        server.beginGracefulShutdown(drainTimeout: .seconds(1))
        try await task.value
    }
}

@Suite(.timeLimit(.minutes(1))) struct IdentitySigningKeysTests {
    let logger = Logger(label: "identity-signing-keys-test")
    // What is tested is what gets fetched, not how fast: the whole suite starting at once on two cores can
    // hold a first call past the production 2 s.
    let fetchTimeout: Duration = .seconds(30)

    @Test func fetchesThePublishedKeysAndSkipsUnusableOnes() async throws {
        let identity = PublishingIdentity()
        let (good, other) = (SigningKey(), SigningKey())
        identity.publish([good, other])
        identity.published.withLock { published in
            published[1].alg = "RS256"
            published.append(.init(kid: "short", alg: "EdDSA", publicKey: [1, 2, 3]))
        }
        let running = try RunningServer([identity])
        let source = try IdentitySigningKeys(
            target: running.target, logger: logger, fetchTimeout: fetchTimeout)
        #expect(try await source.verificationKeys() == [good.verificationKey])
        try await running.stop()
    }

    @Test func unreachableIdentityIsUnavailable() async throws {
        let running = try RunningServer([PublishingIdentity()])
        let target = running.target
        try await running.stop()
        let source = try IdentitySigningKeys(target: target, logger: logger)
        let error = await #expect(throws: RPCError.self) { try await source.verificationKeys() }
        #expect(error?.code == .unavailable || error?.code == .deadlineExceeded)
    }

    @Test func anotherServiceVerifiesTokensWithKeysFromIdentityAndPicksUpARotation() async throws {
        let identity = PublishingIdentity()
        let first = SigningKey()
        identity.publish([first])
        let identityServer = try RunningServer([identity])
        let keys = try IdentitySigningKeys(
            target: identityServer.target, logger: logger, fetchTimeout: fetchTimeout)
        let served = StandardServices(board: HealthStatusBoard(), services: [ProtectedService()])
        let family = try RunningServer(
            served.all, authenticator: TokenAuthenticator(keySource: keys, refreshInterval: .zero))
        served.markServing(true)

        #expect(try await check(family, token: token(first)) == .serving)
        let health = Grpc_Health_V1_Health.Client(family.client)
        #expect(try await health.check(.init()).status == .serving, "health needs no token")

        let second = SigningKey()
        identity.publish([second, first])
        #expect(try await check(family, token: token(second)) == .serving)
        #expect(try await check(family, token: token(first)) == .serving)
        let error = await #expect(throws: RPCError.self) { try await check(family, token: nil) }
        #expect(error?.code == .unauthenticated)

        try await family.stop()
        try await identityServer.stop()
    }

    func token(_ key: SigningKey) -> String {
        let now = TokenClock.system.now
        return TokenSigner(key: key).sign(
            TokenClaims(
                subject: "user-1", role: .user, ageBand: .adult, parentalControls: false, scope: .full,
                issuedAt: now, expiresAt: now + 900, tokenID: key.keyID))
    }

    func check(_ server: RunningServer, token: String?) async throws
        -> Grpc_Health_V1_HealthCheckResponse.ServingStatus
    {
        var options = CallOptions(timeout: .seconds(10))
        if let token { options.metadata.add("authorization", "Bearer \(token)") }
        let response: Grpc_Health_V1_HealthCheckResponse = try await server.client.unary(
            method: ProtectedService.check, request: Grpc_Health_V1_HealthCheckRequest(), options: options)
        return response.status
    }
}
