import KindredAPI
import KindredMessages
import KindredRPC
import Logging
import Testing

@testable import KindredRuntime

/// Health over the wire, through the generated typed client: the path a peer service or a probe takes.
@Suite struct HealthServiceTests {
    @Test func checkAndWatchAnswerFromTheBoard() async throws {
        let board = HealthStatusBoard()
        let served = StandardServices(board: board, services: [])
        let server = try RPCServer.bind(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0), services: served.all,
            logger: Logger(label: "health-service-test"))
        // On a loop's thread: a task on the cooperative pool, which other tests may hold with blocking work, started
        // 10 s late under the full suite, and the first call's deadline passed before the server served.
        let serving = Task(executorPreference: EventLoop.background) { try await server.run() }
        let client = try RPCClient(target: "127.0.0.1:\(server.port)")
        let health = Grpc_Health_V1_Health.Client(client)

        served.markServing(true)
        #expect(try await health.check(.init()).status == .serving)
        #expect(
            try await health.check(.init(service: "grpc.reflection.v1.ServerReflection")).status == .serving)
        let unknown = await #expect(throws: RPCError.self) {
            try await health.check(.init(service: "kindred.Nope"))
        }
        #expect(unknown?.code == .notFound)

        var statuses = health.watch(
            .init(service: "grpc.health.v1.Health"), options: CallOptions(timeout: .seconds(10))
        )
        .makeAsyncIterator()
        #expect(try await statuses.next()?.status == .serving)
        served.markServing(false)
        #expect(try await statuses.next()?.status == .notServing)
        board.beginDrain()
        // Ended by the drain: UNAVAILABLE, so that a client reconnects (elsewhere) rather than take it for an end.
        let ended = await #expect(throws: RPCError.self) { try await statuses.next() }
        #expect(ended?.code == .unavailable)
        #expect(ended?.message == RPCError.serverShuttingDown.message)

        var unknownWatch = health.watch(
            .init(service: "kindred.Nope"), options: CallOptions(timeout: .seconds(10))
        )
        .makeAsyncIterator()
        #expect(try await unknownWatch.next()?.status == .serviceUnknown)

        client.close()
        server.beginGracefulShutdown(drainTimeout: .seconds(1))
        try await serving.value
    }
}
