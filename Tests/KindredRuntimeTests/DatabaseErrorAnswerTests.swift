import KindredMessages
import KindredPostgres
import KindredRPC
import KindredRuntime
import KindredTestSupport
import Testing

/// A database failure reaches the caller as a status and a plain sentence; PostgreSQL's own words (values,
/// relation names, the server's address) reach only the call's access line.
@Suite(.timeLimit(.minutes(1))) struct DatabaseErrorAnswerTests {
    static let failures: [(PostgresError, StatusCode, String)] = [
        (
            PostgresError(
                kind: .server, sqlState: "42P01", message: "PostgreSQL rejected the statement",
                serverDetail: #"relation "social.secret_table" does not exist"#),
            .internal, RPCError.internalMessage
        ),
        (
            PostgresError(
                kind: .connectionFailure, message: "PostgreSQL is unavailable",
                serverDetail: "connection to server at 10.0.0.7:5432 failed: Connection refused"),
            .unavailable, RPCError.unavailableMessage
        ),
        (
            PostgresError(
                kind: .server, sqlState: "23505", message: "PostgreSQL rejected the statement",
                serverDetail: "Key (username)=(alice_secret) already exists."),
            .alreadyExists, "This already exists."
        ),
    ]

    @Test(arguments: failures)
    func aDatabaseErrorIsAPlainSentenceToTheCallerAndItsDetailGoesToTheLog(
        failure: PostgresError, code: StatusCode, message: String
    ) async throws {
        let log = CapturedLog()
        let server = try RPCServer.bind(
            configuration: ServerConfiguration(host: "127.0.0.1", port: 0),
            services: [FailingStore(failure: failure)], logger: log.logger())
        // On a loop's thread: a task on the cooperative pool, which other tests may hold with blocking work, started
        // 10 s late under the full suite, and the first call's deadline passed before the server served.
        let serving = Task(executorPreference: EventLoop.background) { try await server.run() }
        let client = try RPCClient(target: "127.0.0.1:\(server.port)")
        let answer = await #expect(throws: RPCError.self) {
            let _: Grpc_Health_V1_HealthCheckResponse = try await client.unary(
                method: FailingStore.read, request: Grpc_Health_V1_HealthCheckRequest())
        }
        #expect(answer?.code == code)
        #expect(answer?.message == message)
        let detail = try #require(failure.serverDetail)
        let line = try #require(log.lines("call").first)
        #expect(line.fields["status"] == code.description)
        #expect(line.fields["cause"]?.contains(detail) == true)
        client.close()
        server.beginGracefulShutdown(drainTimeout: .seconds(1))
        try await serving.value
    }
}

/// A store whose every read fails with `failure`, as a handler that lets a database error through does.
struct FailingStore: RPCService {
    static let read = MethodDescriptor(service: "test.Store", method: "Read")
    let failure: PostgresError
    let publicMethods = MethodSet.all

    func registerMethods(with router: inout RPCRouter) {
        let failure = failure
        router.registerUnary(Self.read) {
            (_: Grpc_Health_V1_HealthCheckRequest, _) -> Grpc_Health_V1_HealthCheckResponse in
            throw failure
        }
    }
}
