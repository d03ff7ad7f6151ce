@testable import KindredRPC
import KindredTestSupport
import Logging
import Testing

/// Every call leaves one access line (method, status, reason, duration, peer, request id, and the cause of
/// an error), never its token; a fault's cause reaches the log and never the caller.
@Suite(.timeLimit(.minutes(1))) struct AccessLogTests {
    let probe = Probe()

    @Test func anAnsweredCallLeavesOneLineWithItsFieldsAndNotItsToken() async throws {
        let log = CapturedLog()
        try await withServer([TestService(probe: probe)], log: log) { server in
            let client = try HTTP2TestClient(port: server.port)
            let response = client.call(
                path: TestService.path("Echo"), body: grpcFrames([1]),
                extraHeaders: [("x-request-id", "req-42"), ("authorization", "Bearer sekrit-token-123")])
            #expect(response.grpcStatus == StatusCode.ok.rawValue)
        }
        let lines = log.lines("call")
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.level == .info)
        #expect(line.fields["rpc"] == "/test.Service/Echo")
        #expect(line.fields["status"] == "OK")
        #expect(line.fields["request-id"] == "req-42")
        #expect(line.fields["peer"]?.hasPrefix("ipv4:127.0.0.1:") == true)
        #expect(line.fields["duration_ms"].flatMap(Double.init) != nil)
        #expect(line.fields["reason"] == nil && line.fields["cause"] == nil)
        #expect(!line.description.contains("sekrit"), "the line carries no authorization value")
    }

    @Test func aRefusedCallLeavesItsStatusAndReason() async throws {
        let log = CapturedLog()
        try await withServer([TestService(probe: probe)], log: log) { server in
            let client = try HTTP2TestClient(port: server.port)
            _ = client.call(path: TestService.path("Fail"), body: grpcFrames([]))
        }
        let line = try #require(log.lines("call").first)
        #expect(line.level == .info)
        #expect(line.fields["status"] == "PERMISSION_DENIED")
        #expect(line.fields["reason"] == "PARENTAL_CONTROLS")
        #expect(line.fields["request-id"]?.isEmpty == false, "a generated id when the client sends none")
    }

    /// A handler's unexpected error, and INTERNAL or UNAVAILABLE written with another component's words.
    @Test(arguments: [
        ("Crash", StatusCode.internal, "HandlerCrash"),
        ("Internal", .internal, #"relation "secret_table" does not exist"#),
        ("Unavailable", .unavailable, "connect to 10.0.0.7:5432: Connection refused"),
    ])
    func aFaultReachesTheCallerAsAPlainSentenceAndTheLogWithItsCause(
        method: String, code: StatusCode, cause: String
    ) async throws {
        let log = CapturedLog()
        try await withServer([TestService(probe: probe), LeakyService()], log: log) { server in
            let client = try HTTP2TestClient(port: server.port)
            let path = method == "Crash" ? TestService.path(method) : LeakyService.path(method)
            let response = client.call(path: path, body: grpcFrames([]))
            #expect(response.grpcStatus == code.rawValue)
            let generic = code == .internal ? RPCError.internalMessage : RPCError.unavailableMessage
            #expect(response.grpcMessage == generic)
        }
        let line = try #require(log.lines("call").first)
        #expect(line.fields["status"] == code.description)
        #expect(line.fields["cause"]?.contains(cause) == true)
        #expect(line.level == (code == .internal ? .error : .info))
    }

    @Test func wordsReplacedByTheGenericSentenceReachTheLogBeforeTheirCause() {
        let answer = RPCError.answering(
            RPCError(.internal, "the ledger went negative", cause: RPCError.Fault("row 42")))
        #expect(answer.message == RPCError.internalMessage)
        #expect(answer.cause.map { String(describing: $0) } == "the ledger went negative: row 42")
    }

    @Test func aServicesOwnRefusalWithAReasonKeepsItsSentence() async throws {
        let log = CapturedLog()
        try await withServer([LeakyService()], log: log) { server in
            let client = try HTTP2TestClient(port: server.port)
            let response = client.call(path: LeakyService.path("Busy"), body: grpcFrames([]))
            #expect(response.grpcStatus == StatusCode.unavailable.rawValue)
            #expect(response.grpcMessage == LeakyService.busy)
        }
        let line = try #require(log.lines("call").first)
        #expect(line.fields["reason"] == "HASHING_BUSY")
        #expect(line.fields["cause"] == nil)
    }

    @Test func anOperatorTurnsTheAccessLineDownWithTheLogLevelButKeepsTheFaults() async throws {
        let log = CapturedLog(level: .warning)
        try await withServer([TestService(probe: probe)], log: log) { server in
            let client = try HTTP2TestClient(port: server.port)
            _ = client.call(path: TestService.path("Echo"), body: grpcFrames([1]))
            _ = client.call(path: TestService.path("Fail"), body: grpcFrames([]))
            _ = client.call(path: TestService.path("Crash"), body: grpcFrames([]))
        }
        #expect(log.lines("call").map { $0.fields["status"] } == ["INTERNAL"])
    }

    @Test func aCallTheClientAbandonsLeavesACancelledLine() async throws {
        let log = CapturedLog()
        try await withServer([TestService(probe: probe)], log: log) { server in
            let client = try HTTP2TestClient(port: server.port)
            let id = client.start(path: TestService.path("Sleep"), body: grpcFrames([1]))
            client.run { probe.count("sleep-without-deadline") == 1 }
            client.cancel(id)
            client.run { probe.count("sleep-cancelled") == 1 }
        }
        let line = try #require(log.lines("call").first)
        #expect(line.fields["status"] == "CANCELLED")
        #expect(line.fields["rpc"] == "/test.Service/Sleep")
    }

    @Test(arguments: [
        (0, "0.000"), (999, "0.000"), (1_000, "0.001"), (12_345_678, "12.345"), (2_000_000_000, "2000.000"),
    ])
    func durationsAreMillisecondsToTheMicrosecond(nanos: UInt64, text: String) {
        #expect(AccessLine.milliseconds(nanos) == text)
    }
}

/// Handlers that write another component's words into INTERNAL and UNAVAILABLE, as leaky code did, and one
/// that refuses with a reason and a sentence of its own.
struct LeakyService: RPCService {
    static let busy = "The service is busy. Please try again in a moment."
    let publicMethods = MethodSet.all

    static func path(_ method: String) -> String { "/test.Leaky/\(method)" }

    func registerMethods(with router: inout RPCRouter) {
        router.registerUnary(MethodDescriptor(service: "test.Leaky", method: "Internal")) {
            (_: RawBytes, _) -> RawBytes in
            throw RPCError(.internal, #"ERROR: relation "secret_table" does not exist"#)
        }
        router.registerUnary(MethodDescriptor(service: "test.Leaky", method: "Unavailable")) {
            (_: RawBytes, _) -> RawBytes in
            throw RPCError(.unavailable, "connect to 10.0.0.7:5432: Connection refused")
        }
        router.registerUnary(MethodDescriptor(service: "test.Leaky", method: "Busy")) {
            (_: RawBytes, _) -> RawBytes in
            let reason = ErrorDetail.errorInfo(reason: "HASHING_BUSY", domain: "kindred.test", metadata: [:])
            throw RPCError(.unavailable, Self.busy, details: [reason])
        }
    }
}
