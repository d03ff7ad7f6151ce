/// Maximum connection age: a long-lived HTTP/2 connection keeps its client on this instance however many
/// start beside it, so after `maxConnectionAge` the server asks the client to go, as gRPC servers do: a
/// GOAWAY notice (last stream id 2^31-1: streams already on their way are still taken), the final GOAWAY
/// naming the last stream taken once the notice has had time to arrive, then `maxConnectionAgeGrace` for
/// the calls in flight. No call is lost: the client opens new streams elsewhere from the notice on.
extension ConnectionState {
    /// Between the notice and the final GOAWAY: long enough for a client's streams sent before it saw the
    /// notice to arrive, as grpc-core's one round trip is.
    static let shutdownNoticeLead: Duration = .seconds(1)

    /// When a connection accepted at `now` retires: the age with ±10% jitter, so the connections a client
    /// opened together (after a deploy, say) do not all leave at once.
    static func retirement(after age: Duration?, now: UInt64) -> UInt64? {
        guard let age else { return nil }
        return now &+ UInt64(Double(age.nanoseconds) * Double.random(in: 0.9...1.1))
    }
}

extension ConnectionState.Limits {
    init(_ configuration: ServerConfiguration) {
        self.init(
            handshakeTimeout: configuration.handshakeTimeout, idleTimeout: configuration.idleTimeout,
            keepaliveInterval: configuration.keepaliveInterval,
            keepaliveTimeout: configuration.keepaliveTimeout,
            maxConnectionAgeGrace: configuration.maxConnectionAgeGrace,
            maxFramesWithoutProgress: configuration.maxFramesWithoutProgress,
            frameFloodWindow: configuration.frameFloodWindow)
    }
}
