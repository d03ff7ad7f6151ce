import KindredMetrics
@testable import KindredRPC
import KindredTestSupport
import Logging
import Testing

/// What a client can make the server write: a flood of malformed calls leaves a bounded number of lines, a
/// client's mistakes are never `error`, and health checks are counted, not logged.
@Suite(.timeLimit(.minutes(1))) struct AccessLogFloodTests {
    let probe = Probe()

    /// A bad flag byte: the length prefix of no gRPC message.
    static let malformed: [UInt8] = [7, 0, 0, 0, 0]

    @Test func aFloodOfMalformedCallsLeavesAFewLinesAndOneSummaryThatCountsTheRest() async throws {
        let log = CapturedLog(level: .info)
        let calls = 300
        try await withServer(
            [TestService(probe: probe)],
            configure: { configuration in
                // One window for the whole test, so that the count does not depend on how fast the machine is;
                // the summary comes when the connection closes.
                configuration.accessLog.summaryWindow = .seconds(3_600)
            }, log: log
        ) { server in
            let client = try HTTP2TestClient(port: server.port)
            for _ in 0..<calls {
                let response = client.call(path: TestService.path("Echo"), body: Self.malformed)
                #expect(response.grpcStatus == StatusCode.internal.rawValue)
            }
        }
        let lines = log.lines("call")
        #expect(lines.count == AccessLogSettings().noisyLinesPerWindow)
        #expect(lines.allSatisfy { $0.level == .info && $0.fields["cause"]?.contains("Malformed") == true })
        let summaries = log.lines("access lines summarized")
        #expect(summaries.count == 1)
        let summary = try #require(summaries.first)
        #expect(summary.fields["malformed"] == String(calls - lines.count))
        #expect(summary.fields["statuses"] == "INTERNAL:\(calls - lines.count)")
        #expect(summary.fields["peer"]?.hasPrefix("ipv4:127.0.0.1:") == true)
    }

    /// The rapid reset that once wrote 148,526 lines in 15 s: HEADERS, then RST_STREAM, again and again.
    @Test func aRapidResetLeavesAFewLinesAndOneSummary() async throws {
        let log = CapturedLog(level: .info)
        let resets = 200
        try await withServer(
            [TestService(probe: probe)], configure: { $0.accessLog.summaryWindow = .seconds(3_600) }, log: log
        ) { server in
            let client = try HTTP2TestClient(port: server.port)
            // First an answer, so the client has the server's SETTINGS (1,000 streams) before it opens 200.
            #expect(client.call(path: TestService.path("Echo"), body: grpcFrames([1])).grpcStatus == 0)
            for _ in 0..<resets {
                let id = client.start(path: TestService.path("Echo"), body: [], endStream: false)
                client.flush()  // the HEADERS go out, or nghttp2 drops a stream reset before it was sent
                client.cancel(id)
            }
            // Frames are handled in order: once this answer is back, every reset before it was seen.
            #expect(client.call(path: TestService.path("Echo"), body: grpcFrames([1])).grpcStatus == 0)
        }
        let lines = log.lines("call")
        let written = lines.filter { $0.fields["status"] == "CANCELLED" }.count
        // A reset read together with its HEADERS leaves no line at all (AttackCostTests); the others are
        // written a few a second and summarized.
        #expect(written <= AccessLogSettings().noisyLinesPerWindow)
        #expect(lines.filter { $0.fields["status"] == "OK" }.count == 2, "answered calls are always written")
        let summarized = Int(log.lines("access lines summarized").first?.fields["reset"] ?? "0") ?? 0
        #expect(written + summarized <= resets)
        #expect(written == AccessLogSettings().noisyLinesPerWindow || summarized == 0)
    }

    @Test func aClientsMalformedCallIsNotAnErrorSoTheWarningLevelShowsNone() async throws {
        let log = CapturedLog(level: .warning)
        try await withServer([TestService(probe: probe)], log: log) { server in
            let client = try HTTP2TestClient(port: server.port)
            #expect(client.call(path: TestService.path("Echo"), body: Self.malformed).grpcStatus == 13)
            #expect(client.call(path: TestService.path("Echo"), body: [0, 0, 0, 0, 9, 1]).grpcStatus == 13)
            #expect(client.call(path: TestService.path("Echo"), body: grpcFrames([0xFF])).grpcStatus == 3)
            _ = client.call(path: TestService.path("Crash"), body: grpcFrames([]))
        }
        #expect(log.lines("call").map { $0.fields["status"] } == ["INTERNAL"])
        #expect(log.lines("call").first?.fields["rpc"] == TestService.path("Crash"))
    }

    @Test func answeredCallsAreNeverSummarized() async throws {
        let log = CapturedLog(level: .info)
        try await withServer([TestService(probe: probe)], log: log) { server in
            let client = try HTTP2TestClient(port: server.port)
            for _ in 0..<20 { _ = client.call(path: TestService.path("Fail"), body: grpcFrames([])) }
        }
        #expect(log.lines("call").count == 20)
        #expect(log.lines("access lines summarized").isEmpty)
    }

    @Test(arguments: [false, true])
    func healthChecksAreCountedAndLoggedOnlyWhenAsked(logsProbes: Bool) async throws {
        let log = CapturedLog(level: .info)
        let registry = MetricsRegistry()
        var metrics = ""
        try await withServer(
            [ProbeLikeService()], configure: { $0.accessLog.logsProbes = logsProbes }, log: log
        ) { server in
            server.registerMetrics(in: registry)
            let client = try HTTP2TestClient(port: server.port)
            for _ in 0..<3 {
                #expect(client.call(path: ProbeLikeService.check, body: grpcFrames([])).grpcStatus == 0)
            }
            #expect(client.call(path: ProbeLikeService.other, body: grpcFrames([])).grpcStatus == 0)
            metrics = String(decoding: await registry.render().bytes, as: UTF8.self)
        }
        let logged = log.lines("call").compactMap { $0.fields["rpc"] }
        #expect(
            logged == (logsProbes ? Array(repeating: ProbeLikeService.check, count: 3) : []) + [
                ProbeLikeService.other
            ])
        #expect(
            metrics.contains(#"kindred_rpc_calls_total{method="/grpc.health.v1.Health/Check",code="OK"} 3"#))
    }
}

/// A service named like the health service, and one that is not.
struct ProbeLikeService: RPCService {
    static let check = "/grpc.health.v1.Health/Check"
    static let other = "/test.Other/Call"
    let publicMethods = MethodSet.all

    func registerMethods(with router: inout RPCRouter) {
        router.registerUnary(MethodDescriptor(service: "grpc.health.v1.Health", method: "Check")) {
            (request: RawBytes, _) -> RawBytes in request
        }
        router.registerUnary(MethodDescriptor(service: "test.Other", method: "Call")) {
            (request: RawBytes, _) -> RawBytes in request
        }
    }
}
