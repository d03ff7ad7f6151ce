internal import KindredThreads
public import Logging

/// How an `RPCClient` connects, retries and bounds its calls.
public struct ClientConfiguration: Sendable {
    /// Connections per address of the peer on each event loop the client is used from; calls multiplex over them.
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
    /// How long a new connection may take to be ready before it counts as failed: the TCP connect and, with
    /// TLS, the handshake (a peer that accepts but never finishes its handshake must not hold calls for ever).
    public var connectTimeout: Duration = .seconds(5)
    /// Silence from the peer, while calls are open, after which a PING checks the connection is alive.
    public var keepaliveInterval: Duration = .seconds(30)
    /// How long an unanswered keepalive PING may wait before the connection counts as dead (its calls
    /// then fail UNAVAILABLE, so idempotent ones are retried on a new connection).
    public var keepaliveTimeout: Duration = .seconds(10)
    /// The `user-agent` sent with every call.
    public var userAgent: String = "kindred-rpc"
    /// Where a peer's unavailability or timeout is reported, at warning (see `RPCClient+PeerWarnings.swift`).
    public var logger = Logger(label: "kindred.rpc.client")
    /// After a peer's failure is reported, further failures of the same method are counted, not logged,
    /// for this long: an outage is a few lines, not one per call.
    public var peerWarningInterval: Duration = .seconds(10)
    /// TLS 1.3 with ALPN `h2` (and a client certificate for mutual TLS); nil speaks h2c. Defaults to the
    /// process's choice (`ClientTLS.useForEveryClient`).
    public var tls: ClientTLS? = ClientTLS.processDefault
    /// Turns the target's host name into its addresses, off the event loops (a literal IP needs none). Defaults
    /// to `HostsFileResolver.processDefault`: the system's resolver, after `KINDRED_HOSTS_FILE` when it is set.
    public var resolver: any NameResolver = HostsFileResolver.processDefault
    /// How often a host name is resolved again, so addresses that join or leave a headless Service are
    /// followed; a connection that ends or is told GOAWAY asks sooner.
    public var resolveInterval: Duration = .seconds(30)
    /// When set, unary and client-streaming calls throttle themselves once the peer refuses them for overload
    /// (`ClientThrottle`): those refused here fail `UNAVAILABLE` `CLIENT_THROTTLED` without being sent. Defaults
    /// to the process's choice (`ClientThrottle.Settings.useForEveryClient`: a service's clients of its peers),
    /// else off.
    public var throttle: ClientThrottle.Settings? = ClientThrottle.Settings.processDefault

    /// The defaults: 2 connections per address, 10 s deadline, 4 MiB messages, 5 attempts, 100 ms–5 s backoff,
    /// the system resolver every 30 s.
    public init() {}

    /// The backoff before attempt `attempt + 1` (0-based): exponential, capped, with ±20% jitter.
    func backoff(after attempt: Int) -> Duration {
        Backoff(initial: initialBackoff, ceiling: maxBackoff, jitter: 0.8...1.2).delay(
            afterFailures: attempt + 1)
    }
}
