import KindredRPC
import KindredTestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct ClientResilienceTests {
    @Test func clientReconnectsAfterTheServerRestarts() async throws {
        try await onClientTestLoop {
            var server = try ClientTestServer()
            let port = server.port
            let client = try RPCClient(target: server.target, configuration: .tests)
            let first: ClientTestText = try await client.unary(
                method: ClientTestService.method("Echo"), request: ClientTestText("one"))
            #expect(first.text == "one")
            await server.stop()
            server = try ClientTestServer(port: port)
            let second: ClientTestText = try await client.unary(
                method: ClientTestService.method("Echo"), request: ClientTestText("two"),
                options: CallOptions(idempotent: true))
            #expect(second.text == "two")
            client.close()
            await server.stop()
        }
    }

    @Test func idempotentCallIsRetriedUntilTheServerAppears() async throws {
        try await onClientTestLoop {
            let port = try freePort()
            let client = try RPCClient(target: "127.0.0.1:\(port)", configuration: .tests)
            let starter = Task(executorPreference: clientTestLoop) {
                try await Task.sleep(for: .milliseconds(300))
                return try ClientTestServer(port: port)
            }
            let response: ClientTestText = try await client.unary(
                method: ClientTestService.method("Echo"), request: ClientTestText("late"),
                options: CallOptions(timeout: .seconds(30), idempotent: true))
            #expect(response.text == "late")
            client.close()
            try await starter.value.stop()
        }
    }

    /// A server's SERVER_OVERLOADED is its pushback, for whoever started the work: an idempotent call hears it
    /// after one attempt, not after retries that would hold the caller's own slot and add to the peer's load;
    /// also when the server named no delay (a second is taken).
    @Test(arguments: [("busy", Duration.milliseconds(250)), ("busy, no delay", .seconds(1))])
    func anOverloadRefusalIsNotRetried(_ text: String, delay: Duration) async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let client = try RPCClient(target: server.target, configuration: .tests)
            let error = await #expect(throws: RPCError.self) {
                let _: ClientTestText = try await client.unary(
                    method: ClientTestService.method("Echo"), request: ClientTestText(text),
                    options: CallOptions(timeout: .seconds(30), idempotent: true))
            }
            #expect(error?.overloadRetryDelay == delay)
            #expect(server.observations.unaryCalls.load(ordering: .relaxed) == 1, "one attempt")
            client.close()
            await server.stop()
        }
    }

    /// A client that throttles itself stops sending a server what it keeps refusing for overload: past k requests
    /// per accept, calls fail CLIENT_THROTTLED here, unsent; a client without a throttle sends every one.
    @Test func aThrottledClientStopsSendingWhatTheServerKeepsRefusing() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            var configuration = ClientConfiguration.tests
            configuration.throttle = ClientThrottle.Settings(k: 2)
            let client = try RPCClient(target: server.target, configuration: configuration)
            var throttled = 0
            for _ in 0..<40 {
                do throws(RPCError) {
                    let _: ClientTestText = try await client.unary(
                        method: ClientTestService.method("Echo"), request: ClientTestText("busy"))
                } catch  where error == .throttledByClient(retryAfter: .milliseconds(250)) {
                    // Refused here, asking for the delay the server's refusals asked for.
                    #expect(error.overloadRetryDelay == .milliseconds(250))
                    throttled += 1
                } catch {
                    #expect(error == .serverOverloaded(retryAfter: .milliseconds(250)))
                }
            }
            let sent = server.observations.unaryCalls.load(ordering: .relaxed)
            #expect(throttled > 0 && sent + throttled == 40, "\(sent) sent, \(throttled) throttled")
            client.close()
            await server.stop()
        }
    }

    /// Only a server's overload refusals make a client throttle itself: a peer that is down fails every call on
    /// its own, and none of them is refused here.
    @Test func aPeerThatIsDownIsNoReasonToThrottle() async throws {
        try await onClientTestLoop {
            var configuration = ClientConfiguration.tests
            configuration.throttle = ClientThrottle.Settings(k: 2)
            let client = try RPCClient(target: "127.0.0.1:\(try freePort())", configuration: configuration)
            for _ in 0..<20 {
                let error = await #expect(throws: RPCError.self) {
                    let _: ClientTestText = try await client.unary(
                        method: ClientTestService.method("Echo"), request: ClientTestText(),
                        options: CallOptions(timeout: .seconds(30)))
                }
                #expect(
                    error?.code == .unavailable && error?.overloadRetryDelay == nil,
                    "\(String(describing: error))")
            }
            client.close()
        }
    }

    /// A retry would first wait out a ten-minute backoff: the suite's time limit would end the test.
    @Test func nonIdempotentCallIsNotRetried() async throws {
        try await onClientTestLoop {
            let port = try freePort()
            var configuration = ClientConfiguration.tests
            configuration.initialBackoff = .seconds(600)
            configuration.maxBackoff = .seconds(600)
            let client = try RPCClient(target: "127.0.0.1:\(port)", configuration: configuration)
            let error = await #expect(throws: RPCError.self) {
                let _: ClientTestText = try await client.unary(
                    method: ClientTestService.method("Echo"), request: ClientTestText(),
                    options: CallOptions(timeout: .seconds(3_600)))
            }
            #expect(error?.code == .unavailable)
            client.close()
        }
    }

    /// The backoff before a retry (ten minutes) ends past the deadline, so no retry starts: a client that
    /// slept through it would run into the suite's time limit.
    @Test func retriesStopAtTheDeadline() async throws {
        try await onClientTestLoop {
            let port = try freePort()
            var configuration = ClientConfiguration.tests
            configuration.initialBackoff = .seconds(600)
            configuration.maxBackoff = .seconds(600)
            let client = try RPCClient(target: "127.0.0.1:\(port)", configuration: configuration)
            let error = await #expect(throws: RPCError.self) {
                let _: ClientTestText = try await client.unary(
                    method: ClientTestService.method("Echo"), request: ClientTestText(),
                    options: CallOptions(timeout: .milliseconds(250), idempotent: true))
            }
            #expect(error?.code == .unavailable || error?.code == .deadlineExceeded)
            client.close()
        }
    }

    @Test func closingTheClientLetsCallsInFlightFinish() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let client = try RPCClient(target: server.target, configuration: .tests)
            let inFlight = Task(executorPreference: clientTestLoop) {
                let response: ClientTestText = try await client.unary(
                    method: ClientTestService.method("Hold"), request: ClientTestText())
                return response.text
            }
            try await eventually("the call is in flight") { server.observations.hold.waiting == 1 }
            client.close()
            server.observations.hold.open()
            #expect(try await inFlight.value == "released")
            await server.stop()
        }
    }

    @Test func callInFlightFinishesWhileTheServerDrainsAndLaterCallsAreUnavailable() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let client = try RPCClient(target: server.target, configuration: .tests)
            let inFlight = Task(executorPreference: clientTestLoop) {
                let response: ClientTestText = try await client.unary(
                    method: ClientTestService.method("Hold"), request: ClientTestText())
                return response.text
            }
            try await eventually("the call is in flight") { server.observations.hold.waiting == 1 }
            server.server.beginGracefulShutdown(drainTimeout: .seconds(5))
            server.observations.hold.open()
            #expect(try await inFlight.value == "released")
            let error = await #expect(throws: RPCError.self) {
                let _: ClientTestText = try await client.unary(
                    method: ClientTestService.method("Echo"), request: ClientTestText())
            }
            #expect(error?.code == .unavailable)
            client.close()
            await server.stop()
        }
    }

    @Test func closedClientRefusesNewCalls() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let client = try RPCClient(target: server.target, configuration: .tests)
            client.close()
            let error = await #expect(throws: RPCError.self) {
                let _: ClientTestText = try await client.unary(
                    method: ClientTestService.method("Echo"), request: ClientTestText())
            }
            #expect(error?.code == .unavailable)
            await server.stop()
        }
    }

    /// The deadline is an hour away: only keepalive can end the call, and UNAVAILABLE says it did.
    @Test func silentPeerIsDetectedByKeepaliveBeforeTheDeadline() async throws {
        try await onClientTestLoop {
            let peer = try ClientSilentPeer()
            var configuration = ClientConfiguration.tests
            configuration.keepaliveInterval = .milliseconds(100)
            configuration.keepaliveTimeout = .milliseconds(100)
            let client = try RPCClient(target: "127.0.0.1:\(peer.port)", configuration: configuration)
            let error = await #expect(throws: RPCError.self) {
                let _: ClientTestText = try await client.unary(
                    method: ClientTestService.method("Echo"), request: ClientTestText(),
                    options: CallOptions(timeout: .seconds(3_600)))
            }
            #expect(error?.code == .unavailable)
            client.close()
        }
    }

    @Test func hostNameTargetIsResolved() async throws {
        try await onClientTestLoop {
            let server = try ClientTestServer()
            let client = try RPCClient(target: "localhost:\(server.port)", configuration: .tests)
            let response: ClientTestText = try await client.unary(
                method: ClientTestService.method("Echo"), request: ClientTestText("named"))
            #expect(response.text == "named")
            client.close()
            await server.stop()
        }
    }

    @Test(arguments: ["nohost", "host:port", ":80", "host:99999"])
    func malformedTargetIsRejected(target: String) {
        #expect(throws: RPCError.self) { try RPCClient(target: target, configuration: .tests) }
    }
}
