import Testing

@testable import KindredRPC

/// The client's own throttle as events in, decisions out: requests and accepts over a window of slices, the
/// refusal probability max(0, (requests − k·accepts) / (requests + 1)). Times are nanoseconds; draws injected.
@Suite struct ClientThrottleTests {
    private static let second: UInt64 = 1_000_000_000
    /// The delay a server's overload refusal asks for.
    private static let refusal = Duration.milliseconds(250)

    private func throttle(k: Double = 2) -> ClientThrottle {
        var settings = ClientThrottle.Settings(k: k)
        settings.window = .seconds(10)
        settings.slices = 10
        return ClientThrottle(settings: settings)
    }

    /// Sends `count` calls at `now`, each accepted when `accepted`; returns how many were sent.
    private func ask(
        _ throttle: inout ClientThrottle, _ count: Int, at now: UInt64, accepted: Bool, draw: Double = 0.5
    ) -> Int {
        var sent = 0
        for _ in 0..<count where throttle.request(now: now, draw: draw) {
            sent += 1
            throttle.answered(now: now, accepted ? .accepted : .refusedForOverload(retryAfter: Self.refusal))
        }
        return sent
    }

    @Test func aServerThatAcceptsEverythingIsSentEverything() {
        var throttle = throttle()
        #expect(ask(&throttle, 1_000, at: Self.second, accepted: true, draw: 0) == 1_000)
        #expect(throttle.refusalProbability == 0)
    }

    @Test(arguments: [
        // k, requests, accepts, the probability
        (2.0, 100, 50, 0.0),
        (2.0, 100, 25, 50.0 / 101),
        (2.0, 100, 0, 100.0 / 101),
        (1.1, 100, 50, 45.0 / 101),
    ])
    func theProbabilityIsTheBooks(k: Double, requests: Int, accepts: Int, probability: Double) {
        var throttle = throttle(k: k)
        for index in 0..<requests {
            let sent = throttle.request(now: Self.second, draw: 1)
            #expect(sent)
            throttle.answered(
                now: Self.second, index < accepts ? .accepted : .refusedForOverload(retryAfter: Self.refusal))
        }
        #expect(abs(throttle.refusalProbability - probability) < 1e-9)
    }

    @Test(arguments: [2.0, 1.1])
    func aServerServingAQuarterOfTheCallsIsSentAboutKTimesWhatItAccepts(k: Double) {
        var throttle = throttle(k: k)
        var sent = 0
        var accepted = 0
        for index in 0..<4_000 {
            // Draws spread evenly over 0..<1; the server accepts one call for every four asked so far.
            let draw = Double((index * 7_919) % 4_000) / 4_000
            guard throttle.request(now: Self.second, draw: draw) else { continue }
            sent += 1
            let accepts = accepted * 4 < index + 1
            throttle.answered(
                now: Self.second, accepts ? .accepted : .refusedForOverload(retryAfter: Self.refusal))
            if accepts { accepted += 1 }
        }
        #expect(accepted >= 980, "the server is still sent what it serves")
        #expect(abs(Double(sent) / Double(accepted) - k) < 0.1, "and about k times that, not all 4,000")
        #expect(throttle.requests == 4_000, "calls refused here count as requests")
    }

    @Test func countsLeaveTheWindowASliceAtATime() {
        var throttle = throttle()
        _ = ask(&throttle, 100, at: Self.second / 2, accepted: false)
        #expect(throttle.requests == 100)
        _ = ask(&throttle, 10, at: 5 * Self.second, accepted: true, draw: 1)
        #expect(throttle.requests == 110 && throttle.accepts == 10)
        // Ten seconds after the first slice began, it leaves the window; the later one stays.
        _ = ask(&throttle, 1, at: 10 * Self.second, accepted: true)
        #expect(throttle.requests == 11 && throttle.accepts == 11)
        #expect(throttle.refusalProbability == 0)
        // A long silence empties it.
        _ = ask(&throttle, 1, at: 100 * Self.second, accepted: true)
        #expect(throttle.requests == 1 && throttle.accepts == 1)
    }

    @Test func aRecoveredServerIsSentEverythingAgainOnceItsRefusalsAgeOut() {
        var throttle = throttle()
        _ = ask(&throttle, 1_000, at: Self.second, accepted: false)
        #expect(throttle.refusalProbability > 0.99)
        #expect(ask(&throttle, 100, at: 2 * Self.second, accepted: true, draw: 0.5) == 0)
        #expect(ask(&throttle, 100, at: 12 * Self.second, accepted: true, draw: 0.5) == 100)
    }

    /// Calls count when their answers come: a burst in flight, before any answer, is never taken for refusals.
    @Test func callsInFlightAreNeverRefused() {
        var throttle = throttle()
        let sent = (0..<100).filter { _ in throttle.request(now: Self.second, draw: 0) }.count
        #expect(sent == 100)
        #expect(throttle.requests == 0 && throttle.refusalProbability == 0)
        for _ in 0..<100 {
            throttle.answered(now: Self.second, .refusedForOverload(retryAfter: Self.refusal))
        }
        #expect(throttle.requests == 100 && throttle.refusalProbability > 0.99)
    }

    /// A call refused here asks for the delay the server last asked for in an overload refusal.
    @Test func aRefusalHereAsksForTheServersLastDelay() {
        var throttle = throttle()
        _ = ask(&throttle, 10, at: Self.second, accepted: false)
        #expect(throttle.retryAfter == Self.refusal)
        throttle.answered(now: Self.second, .refusedForOverload(retryAfter: .milliseconds(900)))
        let sent = throttle.request(now: Self.second, draw: 0)
        #expect(!sent)
        #expect(throttle.retryAfter == .milliseconds(900))
    }

    /// A server's overload refusal that names no delay (not a Kindred server's) is still a refusal, and the
    /// last delay named stands.
    @Test func anOverloadRefusalWithoutADelayCountsAndKeepsTheLastDelay() {
        var throttle = throttle()
        throttle.answered(now: Self.second, .refusedForOverload(retryAfter: .milliseconds(900)))
        for _ in 0..<99 { throttle.answered(now: Self.second, .refusedForOverload(retryAfter: nil)) }
        #expect(throttle.requests == 100 && throttle.accepts == 0)
        #expect(throttle.retryAfter == .milliseconds(900))
    }

    /// A service's choice (`useForEveryClient`, made at start from `--peer-throttle`) is what every client
    /// configuration created after it starts with; unset, clients do not throttle. In a process of its own: the
    /// choice is the whole process's, and a client another test made meanwhile would throttle with it.
    @Test func theProcesssChoiceIsWhatNewClientConfigurationsStartWith() async {
        await #expect(processExitsWith: .success) {
            #expect(ClientConfiguration().throttle == nil)
            ClientThrottle.Settings.useForEveryClient(ClientThrottle.Settings(k: 3))
            #expect(ClientConfiguration().throttle == ClientThrottle.Settings(k: 3))
            ClientThrottle.Settings.useForEveryClient(nil)
            #expect(ClientConfiguration().throttle == nil)
        }
    }
}
