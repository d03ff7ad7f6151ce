#if canImport(Glibc)
import Glibc
#endif
public import KindredAuth

/// How an `RPCServer` listens, and the limits it enforces.
public struct ServerConfiguration: Sendable {
    /// The address to bind: an IPv4 or IPv6 literal; `0.0.0.0` or `::` for every interface.
    public var host: String
    /// The TCP port; 0 picks an ephemeral port (see `RPCServer.port`).
    public var port: Int
    /// Event loop threads; one per core by default.
    public var eventLoopCount: Int
    /// The default largest request message accepted, in bytes (per-method overrides in `RPCRouter`).
    public var maxReceiveMessageSize: Int
    /// `SETTINGS_MAX_CONCURRENT_STREAMS`, advertised and enforced per connection.
    public var maxConcurrentStreams: Int
    /// The largest request header block accepted, in bytes (advertised as `SETTINGS_MAX_HEADER_LIST_SIZE`).
    public var maxHeaderListSize: Int
    /// Connections beyond this many are refused with a GOAWAY, unless the oldest connection that never
    /// finished its handshake, or else the one idle longest, can be shed to make room.
    public var maxConnections: Int
    /// A connection whose HTTP/2 preface and first SETTINGS (after its TLS handshake, on TLS) have not arrived
    /// this long after accept is closed, unless bytes it sent wait unread: then the server is behind, not the
    /// client, and the deadline starts again.
    public var handshakeTimeout: Duration
    /// A connection with no open streams for this long is sent a GOAWAY and closed.
    public var idleTimeout: Duration
    /// Frames that carry no progress (empty DATA, DATA for a stream that is gone, PRIORITY, SETTINGS after the
    /// first, unknown types, and WINDOW_UPDATE or PING beyond two per DATA frame the server sent) a connection
    /// may send per `frameFloodWindow`; one more ends it with GOAWAY `ENHANCE_YOUR_CALM`.
    public var maxFramesWithoutProgress: Int
    /// The window `maxFramesWithoutProgress` counts over.
    public var frameFloodWindow: Duration
    /// After a connection is calmed for a flood, new connections from its address are refused for this long,
    /// doubling with each flood while the address cools (to 32 times this); zero turns it off. Clients behind
    /// one address (a gateway) share it, so it starts short.
    public var floodCooling: Duration
    /// After this long without a frame from the peer the server sends a PING.
    public var keepaliveInterval: Duration
    /// A PING unanswered this long closes the connection.
    public var keepaliveTimeout: Duration
    /// How long a connection may live (±10% jitter) before the server asks its client to move on: a GOAWAY
    /// notice, the final GOAWAY a second later, then `maxConnectionAgeGrace` for the calls in flight. Clients
    /// that balance reconnect, and so reach instances started after them. nil (the default): no limit.
    public var maxConnectionAge: Duration?
    /// How long calls in flight on a connection past its age may take to finish; a server stream still open
    /// then ends with UNAVAILABLE `SERVER_SHUTTING_DOWN`, which clients reopen elsewhere.
    public var maxConnectionAgeGrace: Duration
    /// The `listen(2)` backlog.
    public var listenBacklog: Int
    /// Whether responses may be gzip-compressed when the client accepts gzip and the handler asks for it
    /// (see `ServerContext.compressResponse`).
    public var allowsResponseCompression: Bool
    /// Bytes a server stream may queue before `ResponseStreamWriter.write` suspends.
    public var responseBufferLimit: Int
    /// Verifies the `authorization: Bearer` token of every call before its handler runs. Without one, public
    /// methods work as usual and protected ones refuse every call (UNAUTHENTICATED): a server is never
    /// open by accident, and `bind` logs a warning when it serves protected methods without one.
    public var authenticator: TokenAuthenticator?
    /// How many unary calls each loop runs at once before it refuses more (see `AdmissionLimit`).
    public var admission = AdmissionSettings()
    /// TLS 1.3 with ALPN `h2` on the listener, and mutual TLS when it names client CAs; nil serves h2c.
    public var tls: ServerTLSSettings?
    /// What the access log writes: probes or not, and the budget of lines for noisy calls.
    public var accessLog = AccessLogSettings()

    /// A configuration listening on `host:port` with the defaults of a production gRPC server.
    public init(host: String = "0.0.0.0", port: Int) {
        self.host = host
        self.port = port
        self.eventLoopCount = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        self.maxReceiveMessageSize = 4 << 20
        self.maxConcurrentStreams = 1000
        self.maxHeaderListSize = 16 << 10
        self.maxConnections = 10_000
        self.handshakeTimeout = .seconds(5)
        self.idleTimeout = .seconds(300)
        self.maxFramesWithoutProgress = 1000
        self.frameFloodWindow = .seconds(10)
        self.floodCooling = .seconds(1)
        self.keepaliveInterval = .seconds(120)
        self.keepaliveTimeout = .seconds(20)
        self.maxConnectionAgeGrace = .seconds(30)
        self.listenBacklog = 4096
        self.allowsResponseCompression = true
        self.responseBufferLimit = 64 << 10
    }
}
