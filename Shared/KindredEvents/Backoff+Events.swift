internal import KindredThreads

extension Backoff {
    /// Between attempts of the event machinery (a stream's page, a consumer's batch, the sequencer) at an
    /// unreachable PostgreSQL: 100 ms doubling to 5 s, jittered.
    static var events: Backoff { Backoff(initial: .milliseconds(100), ceiling: .seconds(5)) }
}
