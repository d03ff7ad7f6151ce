import KindredMetrics
@testable import KindredRPC
import KindredTestSupport
import Logging
import Testing

/// `traceparent` in, a new span per hop, the trace in every access line and on every call a handler makes.
@Suite(.timeLimit(.minutes(1))) struct TraceTests {
    let probe = Probe()
    static let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let callerSpan = "00f067aa0ba902b7"

    /// `test.Trace/Current` answers with the trace its handler runs in, as a `traceparent`.
    struct TraceService: RPCService {
        let publicMethods = MethodSet.all
        static let current = MethodDescriptor(service: "test.Trace", method: "Current")

        func registerMethods(with router: inout RPCRouter) {
            router.registerUnary(Self.current) { (_: ClientTestText, _: ServerContext) in
                ClientTestText(TraceContext.current?.traceparent ?? "none")
            }
        }
    }

    @Test func aCallersTraceIsContinuedWithANewSpanInTheAccessLine() async throws {
        let log = CapturedLog()
        try await withServer([TestService(probe: probe)], log: log) { server in
            let client = try HTTP2TestClient(port: server.port)
            _ = client.call(
                path: TestService.path("Echo"), body: grpcFrames([1]),
                extraHeaders: [("traceparent", "00-\(Self.traceID)-\(Self.callerSpan)-01")])
        }
        let line = try #require(log.lines("call").first)
        #expect(line.fields["trace_id"] == Self.traceID)
        #expect(line.fields["span_id"]?.count == 16)
        #expect(line.fields["span_id"] != Self.callerSpan)
    }

    @Test func aMalformedTraceparentStartsANewTrace() async throws {
        let log = CapturedLog()
        let zeroTrace = String(repeating: "0", count: 32)
        try await withServer([TestService(probe: probe)], log: log) { server in
            let client = try HTTP2TestClient(port: server.port)
            _ = client.call(
                path: TestService.path("Echo"), body: grpcFrames([1]),
                extraHeaders: [("traceparent", "00-\(zeroTrace)-\(Self.callerSpan)-01")])
        }
        let line = try #require(log.lines("call").first)
        let trace = try #require(line.fields["trace_id"])
        #expect(trace.count == 32 && trace != zeroTrace)
    }

    /// The client side and the server side together: a call made inside a trace reaches the handler as that
    /// trace with a span of the handler's own.
    @Test func aCallMadeInATraceReachesTheHandlerAsANewSpanOfIt() async throws {
        let server = try ServedTrace()
        let client = try RPCClient(target: server.target, configuration: .tests)
        let caller = try #require(TraceContext(traceparent: "00-\(Self.traceID)-\(Self.callerSpan)-01"))
        let answer: ClientTestText = try await TraceContext.$current.withValue(caller) {
            try await client.unary(method: TraceService.current, request: ClientTestText(""))
        }
        let seen = try #require(TraceContext(traceparent: answer.text))
        #expect(seen.traceID == Self.traceID)
        #expect(seen.spanIDText != Self.callerSpan)
        #expect(seen.flags == 1)

        // Outside any trace the handler still runs in one: a new one.
        let untraced: ClientTestText = try await client.unary(
            method: TraceService.current, request: ClientTestText(""))
        #expect(TraceContext(traceparent: untraced.text).map { $0.traceID != Self.traceID } == true)
        client.close()
        await server.stop()
    }

    @Test func aCallersOwnTraceparentIsNotReplaced() throws {
        let client = try RPCClient(target: "127.0.0.1:9", configuration: .tests)
        let own = "00-\(Self.traceID)-\(Self.callerSpan)-00"
        let headers = TraceContext.$current.withValue(.start()) {
            client.requestHeaders(
                method: TraceService.current, options: CallOptions(metadata: Metadata(["traceparent": own])))
        }
        #expect(headers.filter { $0.name == "traceparent" }.map(\.value) == [own])
        client.close()
    }

    @Test func callsAreCountedByMethodAndCode() async throws {
        try await withServer([TestService(probe: probe)]) { server in
            let client = try HTTP2TestClient(port: server.port)
            for _ in 0..<3 { _ = client.call(path: TestService.path("Echo"), body: grpcFrames([1])) }
            _ = client.call(path: "/test.Service/Missing", body: grpcFrames([1]))
            var text = PrometheusText()
            server.core.collectMetrics(into: &text)
            let rendered = String(decoding: text.bytes, as: UTF8.self)
            #expect(rendered.contains(#"kindred_rpc_calls_total{method="/test.Service/Echo",code="OK"} 3"#))
            #expect(rendered.contains(#"kindred_rpc_duration_seconds_count{method="/test.Service/Echo"} 3"#))
            #expect(rendered.contains(#"kindred_rpc_calls_total{method="unknown",code="UNIMPLEMENTED"} 1"#))
            #expect(rendered.contains(#"kindred_rpc_in_flight{method="/test.Service/Echo"} 0"#))
            #expect(rendered.contains("kindred_rpc_open_connections 1"))
        }
    }
}

/// A server of `TraceService` alone, on the client tests' loop.
final class ServedTrace: Sendable {
    let server: RPCServer
    private let runner: Task<Void, any Error>
    var target: String { "127.0.0.1:\(server.port)" }

    init() throws {
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0)
        configuration.eventLoopCount = 1
        var logger = Logger(label: "trace-tests")
        logger.logLevel = .critical
        server = try RPCServer.bind(
            configuration: configuration, services: [TraceTests.TraceService()], logger: logger)
        let server = server
        runner = Task(executorPreference: clientTestLoop) { try await server.run() }
    }

    func stop() async {
        server.beginGracefulShutdown(drainTimeout: .milliseconds(200))
        _ = try? await runner.value
    }
}
