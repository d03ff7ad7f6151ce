import KindredThreads
import Testing

@testable import KindredPostgres

/// The pauses between reconnection attempts (KindredThreads' `Backoff`, as the pool and the loops use it).
@Suite struct ReconnectBackoff {
    @Test func pausesDoubleFrom50MillisecondsTo2SecondsWithJitterAndStartOverAfterASuccess() {
        var backoff = Backoff.reconnect
        let ceilings: [Duration] = [
            .milliseconds(50), .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800),
            .milliseconds(1_600), .seconds(2), .seconds(2),
        ]
        for ceiling in ceilings {
            let pause = backoff.next()
            #expect(pause >= ceiling / 2 && pause <= ceiling, "\(pause) for a step of \(ceiling)")
        }
        #expect(backoff.failures == ceilings.count)
        backoff.reset()
        #expect(backoff.next() <= .milliseconds(50))
    }
}
