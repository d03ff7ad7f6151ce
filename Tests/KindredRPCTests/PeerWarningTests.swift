@testable import KindredRPC
import KindredTestSupport
import Testing

/// A peer that is down or too slow is warned of once, by the client that gives up on the call: not per
/// retry attempt, and not again for every call while the outage lasts.
@Suite(.timeLimit(.minutes(1))) struct PeerWarningTests {
    private func client(target: String, log: CapturedLog) throws -> RPCClient {
        var configuration = ClientConfiguration.tests
        configuration.logger = log.logger()
        configuration.initialBackoff = .milliseconds(10)
        configuration.maxBackoff = .milliseconds(20)
        configuration.connectTimeout = .milliseconds(500)
        // A window the calls of a test fall in however slowly the loaded suite runs them (three calls 10 s apart
        // logged twice with the default, a CI rehearsal of session 20).
        configuration.peerWarningInterval = .seconds(60)
        return try RPCClient(target: target, configuration: configuration)
    }

    @Test func aPeerTimeoutLogsOneWarningWithThePeerAndTheMethod() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let log = CapturedLog()
            let client = try client(target: server.target, log: log)
            for _ in 0..<3 {
                let error = await #expect(throws: RPCError.self) {
                    let _: ClientTestText = try await client.unary(
                        method: ClientTestService.method("Sleep"), request: ClientTestText("5000"),
                        options: CallOptions(timeout: .milliseconds(100)))
                }
                #expect(error?.code == .deadlineExceeded)
            }
            let warnings = log.lines("peer call failed")
            #expect(warnings.count == 1, "the calls after the first fall in its window and are counted")
            let warning = try #require(warnings.first)
            #expect(warning.level == .warning)
            #expect(warning.fields["peer"] == server.target)
            #expect(warning.fields["rpc"] == "/test.Client/Sleep")
            #expect(warning.fields["status"] == "DEADLINE_EXCEEDED")
            client.close()
            await server.stop()
        }
    }

    @Test func anUnreachablePeerLogsOneWarningNotOnePerRetry() async throws {
        try await onClientTestLoop {
            let log = CapturedLog()
            // Port 1: nobody listens there, and unlike a port found free, no other test's server can take it while
            // the call retries.
            let client = try client(target: "127.0.0.1:1", log: log)
            let error = await #expect(throws: RPCError.self) {
                let _: ClientTestText = try await client.unary(
                    method: ClientTestService.method("Echo"), request: ClientTestText("hi"),
                    options: CallOptions(timeout: .seconds(30), idempotent: true))
            }
            #expect(error?.code == .unavailable)
            #expect(log.lines("peer call failed").map { $0.fields["status"] } == ["UNAVAILABLE"])
            client.close()
        }
    }

    @Test func thePeersOwnRefusalIsNoWarning() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let log = CapturedLog()
            let client = try client(target: server.target, log: log)
            _ = await #expect(throws: RPCError.self) {
                let _: ClientTestText = try await client.unary(
                    method: ClientTestService.method("Echo"), request: ClientTestText("fail"))
            }
            #expect(log.lines.isEmpty)
            client.close()
            await server.stop()
        }
    }

    @Test func theNextWarningCountsTheFailuresItsWindowKeptQuiet() {
        var windows = PeerWarningWindows()
        let start = ContinuousClock.now
        let interval = Duration.seconds(10)
        #expect(windows.admit("/a/Get", at: start, interval: interval) == 0)
        #expect(windows.admit("/a/Get", at: start + .seconds(1), interval: interval) == nil)
        #expect(windows.admit("/a/Other", at: start + .seconds(1), interval: interval) == 0, "per method")
        #expect(windows.admit("/a/Get", at: start + .seconds(9), interval: interval) == nil)
        #expect(windows.admit("/a/Get", at: start + .seconds(10), interval: interval) == 2)
        #expect(windows.admit("/a/Get", at: start + .seconds(11), interval: interval) == nil)
    }
}
