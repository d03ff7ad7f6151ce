internal import KindredThreads

/// How a `MailDeliveryWorker` paces itself: retries, claims, polling and how long sent mail is kept.
public struct MailDeliveryPolicy: Sendable, Equatable {
    /// The wait after the first failed attempt; it doubles after each further failure.
    public var firstRetryDelay: Duration
    /// The longest wait between two attempts at one message.
    public var maximumRetryDelay: Duration
    /// How long a claimed message stays hidden from other workers. It must outlast the slowest send
    /// (SMTP: the connect timeout plus seven replies' timeouts), or a second worker may send it too.
    public var claimLease: Duration
    /// The longest sleep between passes when no notification arrives (missed, or LISTEN unavailable).
    public var pollInterval: Duration
    /// How long sent messages are kept before they are deleted; nil keeps them. Bodies may hold
    /// single-use links, so the default is a day, about the life of such a link.
    public var retention: Duration?

    /// The defaults: retries after 30 s, 1 min, 2 min, ... up to hourly; a 10-minute claim; polls every 15 s.
    public init(
        firstRetryDelay: Duration = .seconds(30), maximumRetryDelay: Duration = .seconds(3600),
        claimLease: Duration = .seconds(600), pollInterval: Duration = .seconds(15),
        retention: Duration? = .seconds(86_400)
    ) {
        self.firstRetryDelay = firstRetryDelay
        self.maximumRetryDelay = maximumRetryDelay
        self.claimLease = claimLease
        self.pollInterval = pollInterval
        self.retention = retention
    }

    /// The wait after attempt number `attempt` (1 for the first) failed: exact, since each message keeps its
    /// own schedule in its row and a delivery pass already spreads them.
    func retryDelay(afterAttempt attempt: Int) -> Duration {
        Backoff(initial: firstRetryDelay, ceiling: maximumRetryDelay, jitter: 1...1).delay(
            afterFailures: attempt)
    }
}

extension Duration {
    /// In seconds, for date arithmetic.
    var timeInterval: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
