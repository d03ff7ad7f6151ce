/// How an `RPCClient` connects, retries and bounds its calls.
public struct ClientConfiguration: Sendable {
    /// Connections per peer on each event loop the client is used from; calls multiplex over them.
    public var connectionsPerLoop: Int = 2
    /// The deadline of a call that names none.
    public var defaultTimeout: Duration = .seconds(10)
    /// The largest response message accepted (after decompression).
    public var maxResponseMessageSize: Int = 4 << 20
    /// Attempts an idempotent call gets when the server is UNAVAILABLE (the first one included).
    public var maxAttempts: Int = 5
    /// Backoff between retries and between reconnects: doubles from `initialBackoff` up to `maxBackoff`.
    public var initialBackoff: Duration = .milliseconds(100)
    /// The longest wait between retries or reconnect attempts.
    public var maxBackoff: Duration = .seconds(5)
    /// How long a TCP connect may take before the connection counts as failed.
    public var connectTimeout: Duration = .seconds(5)
    /// Silence from the peer, while calls are open, after which a PING checks the connection is alive.
    public var keepaliveInterval: Duration = .seconds(30)
    /// How long an unanswered keepalive PING may wait before the connection counts as dead (its calls
    /// then fail UNAVAILABLE, so idempotent ones are retried on a new connection).
    public var keepaliveTimeout: Duration = .seconds(10)
    /// The `user-agent` sent with every call.
    public var userAgent: String = "kindred-rpc"

    /// The defaults: 2 connections, 10 s deadline, 4 MiB messages, 5 attempts, 100 ms–5 s backoff.
    public init() {}

    /// The backoff before attempt `attempt + 1` (0-based): exponential, capped, with ±20% jitter.
    func backoff(after attempt: Int) -> Duration {
        let base = initialBackoff * Double(1 << min(attempt, 20))
        let capped = min(base, maxBackoff)
        return capped * Double.random(in: 0.8...1.2)
    }
}

/// Per-call settings: deadline, metadata, retry safety and compression.
public struct CallOptions: Sendable {
    /// How long the call may take; the configuration's default when nil and no `deadline` is set.
    public var timeout: Duration?
    /// An absolute deadline; the earlier of it and `timeout` wins.
    public var deadline: ContinuousClock.Instant?
    /// Custom metadata sent with the request, e.g. `authorization`.
    public var metadata: Metadata
    /// Whether the call may be sent again when the server is UNAVAILABLE.
    public var idempotent: Bool
    /// Whether to gzip the request message.
    public var compressRequest: Bool

    /// Creates options; every field has a default.
    public init(
        timeout: Duration? = nil, deadline: ContinuousClock.Instant? = nil, metadata: Metadata = Metadata(),
        idempotent: Bool = false, compressRequest: Bool = false
    ) {
        self.timeout = timeout
        self.deadline = deadline
        self.metadata = metadata
        self.idempotent = idempotent
        self.compressRequest = compressRequest
    }

    /// Copies the caller's `authorization` from a handler's request metadata, to call on its behalf.
    public mutating func forwardAuthorization(from requestMetadata: Metadata) {
        metadata.removeAll(forKey: "authorization")
        if let token = requestMetadata["authorization"] { metadata.add("authorization", token) }
    }

    /// The call's deadline: the earliest of the options' deadline, its timeout (or the default) and
    /// the deadline of the server call this task is handling.
    func effectiveDeadline(defaultTimeout: Duration) -> ContinuousClock.Instant {
        let now = ContinuousClock.now
        let own: ContinuousClock.Instant =
            switch (timeout, deadline) {
            case (let timeout?, let deadline?): min(now + timeout, deadline)
            case (let timeout?, nil): now + timeout
            case (nil, let deadline?): deadline
            case (nil, nil): now + defaultTimeout
            }
        return RPCDeadline.effective(own)
    }
}
