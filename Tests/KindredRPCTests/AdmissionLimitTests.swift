import KindredAuth
import KindredMetrics
import Testing

@testable import KindredRPC

/// The loop's admission limit as events in, decisions out: arrivals, departures with their latency, windows
/// judged by their fastest call. Times are nanoseconds on an injected clock.
@Suite struct AdmissionLimitTests {
    private static let ms: UInt64 = 1_000_000

    private func settings(initial: Int = 100, minimum: Int = 10, maximum: Int = 1_000) -> AdmissionSettings {
        var settings = AdmissionSettings()
        settings.isEnabled = true
        settings.target = .milliseconds(20)
        settings.window = .milliseconds(100)
        settings.initial = initial
        settings.minimum = minimum
        settings.maximum = maximum
        settings.retryAfter = .milliseconds(250)
        return settings
    }

    /// Admits `count` calls at `at` and lets each finish `latency` later; returns the refusals.
    private func run(_ limit: inout AdmissionLimit, count: Int, at: UInt64, latency: UInt64) -> Int {
        var admitted = 0
        var refused = 0
        for _ in 0..<count {
            if limit.arrive(now: at) == .admit { admitted += 1 } else { refused += 1 }
        }
        for _ in 0..<admitted { limit.depart(startedAt: at, now: at + latency) }
        return refused
    }

    @Test func anIdleLoopAdmitsABurstUpToItsInitialLimitAndRefusesTheNextWithRetryInfo() {
        var limit = AdmissionLimit(settings: settings(initial: 100))
        for _ in 0..<100 { #expect(limit.arrive(now: 0) == .admit) }
        #expect(limit.arrive(now: 0) == .refuse(retryAfter: .milliseconds(250)))
        limit.depart(startedAt: 0, now: Self.ms)
        #expect(limit.arrive(now: Self.ms) == .admit, "a departure makes room at once")
    }

    @Test func aCallHoldingNoPlaceIsRefusedWhereAnArrivalWouldBeAndTakesNoPlace() {
        var limit = AdmissionLimit(settings: settings(initial: 2))
        #expect(limit.arriveHoldingNoPlace(now: 0) == .admit)
        #expect(limit.inFlight == 0)
        #expect(limit.arrive(now: 0) == .admit)
        #expect(limit.arrive(now: 0) == .admit)
        #expect(limit.arriveHoldingNoPlace(now: 0) == .refuse(retryAfter: .milliseconds(250)))
        limit.depart(startedAt: 0, now: Self.ms)
        #expect(limit.arriveHoldingNoPlace(now: Self.ms) == .admit)
        #expect(limit.arrive(now: Self.ms) == .admit, "the call holding no place left the room it found")
    }

    @Test(arguments: [
        // fastest call of the window (ms), the limit after the window
        (40, 50.0),  // twice the target: halved
        (25, 80.0),  // 1.25 × the target: × 0.8
        (90, 50.0),  // far over: at most halved in one window
    ])
    func aWindowWhoseFastestCallOvershotTheTargetShrinksTheLimitInProportion(fastest: Int, after: Double) {
        var limit = AdmissionLimit(settings: settings(initial: 100))
        _ = run(&limit, count: 10, at: 0, latency: UInt64(fastest) * Self.ms)
        // The window ends with the first departure at or after 100 ms.
        _ = run(&limit, count: 1, at: 100 * Self.ms, latency: UInt64(fastest) * Self.ms)
        #expect(limit.inFlight == 0)
        #expect(limit.limit == after)
    }

    @Test func theLimitNeverShrinksBelowItsMinimum() {
        var limit = AdmissionLimit(settings: settings(initial: 100, minimum: 30))
        for window in 0..<20 {
            _ = run(&limit, count: 5, at: UInt64(window) * 100 * Self.ms, latency: 500 * Self.ms)
        }
        #expect(limit.limit == 30)
    }

    @Test func oneSlowKindOfCallDoesNotShrinkTheLimitWhileOthersAreFast() {
        var limit = AdmissionLimit(settings: settings(initial: 100))
        // In time order: a quick call finishes at 12 ms, five password hashes at 190 ms (ending the window).
        _ = run(&limit, count: 1, at: 10 * Self.ms, latency: 2 * Self.ms)
        _ = run(&limit, count: 5, at: 0, latency: 190 * Self.ms)
        #expect(limit.limit == 100)
    }

    @Test func aFastWindowThatReachedTheLimitGrowsItByATenthUpToItsMaximum() {
        var limit = AdmissionLimit(settings: settings(initial: 100, maximum: 115))
        #expect(run(&limit, count: 101, at: 0, latency: Self.ms) == 1)
        _ = run(&limit, count: 1, at: 100 * Self.ms, latency: Self.ms)
        #expect(limit.limit == 110)
        #expect(run(&limit, count: 111, at: 200 * Self.ms, latency: Self.ms) == 1)
        _ = run(&limit, count: 1, at: 300 * Self.ms, latency: Self.ms)
        #expect(limit.limit == 115)
    }

    @Test func aFastWindowThatNeverReachedTheLimitLeavesItAlone() {
        var limit = AdmissionLimit(settings: settings(initial: 100))
        _ = run(&limit, count: 20, at: 0, latency: Self.ms)
        _ = run(&limit, count: 1, at: 100 * Self.ms, latency: Self.ms)
        #expect(limit.limit == 100)
    }

    @Test(arguments: [
        // quiet time after the limit halved to 50 (ms), the limit the next arrival finds
        (99, 50.0),  // less than a window: nothing
        (100, 55.0),  // one window: grown by a tenth, as a healthy window grows it
        (250, 60.5),  // two whole windows
        (60_000, 100.0),  // a minute: back to the initial limit, not past it to the maximum
    ])
    func timeWithNothingInFlightHealsTheLimitUpToWhereItStarted(quietMs: Int, after: Double) {
        var limit = AdmissionLimit(settings: settings(initial: 100, maximum: 1_000))
        _ = run(&limit, count: 10, at: 0, latency: 40 * Self.ms)
        _ = run(&limit, count: 1, at: 100 * Self.ms, latency: 40 * Self.ms)
        #expect(limit.limit == 50)
        #expect(limit.arrive(now: (140 + UInt64(quietMs)) * Self.ms) == .admit)
        #expect(limit.limit == after)
    }

    @Test func aLoopThatShrankInABurstAndWentQuietAdmitsTheNextBurstWhole() {
        var limit = AdmissionLimit(settings: settings(initial: 100, minimum: 10))
        var now: UInt64 = 0
        for _ in 0..<10 {
            _ = run(&limit, count: 100, at: now, latency: 90 * Self.ms)
            now += 100 * Self.ms
        }
        #expect(limit.limit == 10)
        #expect(run(&limit, count: 100, at: now + 40_000 * Self.ms, latency: Self.ms) == 0)
    }

    @Test func callsAlwaysInFlightAreNotQuiet() {
        var limit = AdmissionLimit(settings: settings(initial: 100))
        _ = run(&limit, count: 10, at: 0, latency: 40 * Self.ms)
        _ = run(&limit, count: 1, at: 100 * Self.ms, latency: 40 * Self.ms)
        #expect(limit.limit == 50)
        // One long call holds a place from 150 ms to 10 s while short ones come and go beside it.
        #expect(limit.arrive(now: 150 * Self.ms) == .admit)
        for second in 1..<10 {
            _ = run(&limit, count: 1, at: UInt64(second) * 1_000 * Self.ms, latency: Self.ms)
        }
        #expect(limit.limit == 50)
    }

    @Test func aLoopThatShedUnderOverloadAdmitsAgainAsItsCallsSpeedUp() {
        var limit = AdmissionLimit(settings: settings(initial: 100))
        var now: UInt64 = 0
        for _ in 0..<5 {
            _ = run(&limit, count: 200, at: now, latency: 100 * Self.ms)
            now += 100 * Self.ms
        }
        let shrunk = limit.limit
        #expect(shrunk < 100)
        for _ in 0..<10 {
            _ = run(&limit, count: 200, at: now, latency: Self.ms)
            now += 100 * Self.ms
        }
        #expect(limit.limit > shrunk)
    }
}

/// The limit on the wire: a unary call past it is refused at once with UNAVAILABLE, `SERVER_OVERLOADED` and
/// `RetryInfo`, its handler never started; health checks pass whatever the limit; a call whose deadline has
/// already passed when its request completes never starts.
@Suite struct AdmissionOnTheWireTests {
    let probe = Probe()

    private func configure(_ configuration: inout ServerConfiguration) {
        configuration.admission.isEnabled = true
        configuration.admission.initial = 2
        configuration.admission.minimum = 2
        configuration.admission.maximum = 2
        configuration.admission.retryAfter = .milliseconds(300)
    }

    @Test func aUnaryCallPastTheLoopsLimitIsRefusedAtOnceAndHealthStillAnswers() async throws {
        try await withServer([TestService(probe: probe)], configure: configure) { server in
            let client = try HTTP2TestClient(port: server.port)
            let sleepers = (0..<2).map { _ in
                client.start(path: TestService.path("Sleep"), body: grpcFrames([]))
            }
            client.run(timeout: 5) { probe.count("sleep-without-deadline") == 2 }
            let refused = client.call(path: TestService.path("Sleep"), body: grpcFrames([]))
            #expect(refused.grpcStatus == StatusCode.unavailable.rawValue)
            let details = refused.trailer("grpc-status-details-bin").flatMap(Base64.decode).flatMap(
                StatusDetails.decode)
            #expect(
                details == [
                    .errorInfo(reason: "SERVER_OVERLOADED", domain: "kindred.rpc", metadata: [:]),
                    .retryInfo(retryDelay: .milliseconds(300)),
                ])
            #expect(probe.count("sleep-without-deadline") == 2, "the refused call's handler never started")
            // A client's cancel gives the place back.
            client.cancel(sleepers[0])
            client.run(timeout: 5) { probe.count("sleep-cancelled") == 1 }
            let echoed = client.call(path: TestService.path("Echo"), body: grpcFrames([9]))
            #expect(echoed.grpcStatus == 0)
            // One loop has admitted calls; the other has none, so it adds nothing to the gauge.
            var text = PrometheusText()
            server.core.collectMetrics(into: &text)
            let rendered = String(decoding: text.bytes, as: UTF8.self)
            #expect(rendered.contains("kindred_rpc_shed_total 1\n"))
            #expect(rendered.contains("kindred_rpc_admission_limit 2\n"))
        }
    }

    @Test func aClientStreamStartsOnlyBelowTheLimitAndHoldsNoPlace() async throws {
        try await withServer([TestService(probe: probe)], configure: configure) { server in
            let client = try HTTP2TestClient(port: server.port)
            let sleepers = (0..<2).map { _ in
                client.start(path: TestService.path("Sleep"), body: grpcFrames([]))
            }
            client.run(timeout: 5) { probe.count("sleep-without-deadline") == 2 }
            let refused = client.call(path: TestService.path("Collect"), body: grpcFrames([1]))
            #expect(refused.grpcStatus == StatusCode.unavailable.rawValue)
            let details = refused.trailer("grpc-status-details-bin").flatMap(Base64.decode).flatMap(
                StatusDetails.decode)
            #expect(
                details?.first
                    == .errorInfo(reason: "SERVER_OVERLOADED", domain: "kindred.rpc", metadata: [:]))
            client.cancel(sleepers[0])
            client.run(timeout: 5) { probe.count("sleep-cancelled") == 1 }
            // Below the limit a client stream starts; while it stays open the loop's last place is still free
            // (the server reads the two in order: holding a place, the stream would leave none for the call).
            let upload = client.start(
                path: TestService.path("Collect"), body: grpcFrames([1]), endStream: false)
            _ = client.start(path: TestService.path("Sleep"), body: grpcFrames([]))
            client.run(timeout: 5) { probe.count("sleep-without-deadline") == 3 }
            #expect(probe.count("sleep-without-deadline") == 3)
            client.sendMore(upload, grpcFrames([2]), end: true)
            let uploaded = client.wait(upload)
            #expect(uploaded.grpcStatus == 0)
            client.cancel(sleepers[1])
        }
    }

    @Test func aCallWhoseDeadlinePassedBeforeItsRequestCompletedNeverStarts() async throws {
        try await withServer([TestService(probe: probe)], configure: configure) { server in
            let client = try HTTP2TestClient(port: server.port)
            let response = client.call(
                path: TestService.path("Sleep"), body: grpcFrames([]), extraHeaders: [("grpc-timeout", "1n")])
            #expect(response.grpcStatus == StatusCode.deadlineExceeded.rawValue)
            #expect(probe.count("sleep-with-deadline") == 0)
        }
    }
}
