internal import CNGHTTP2

/// Maximum connection age: a long-lived HTTP/2 connection keeps its client on this instance however many
/// start beside it, so after `maxConnectionAge` the server asks the client to go, as gRPC servers do: a
/// GOAWAY notice (last stream id 2^31-1: streams already on their way are still taken), the final GOAWAY
/// naming the last stream taken once the notice has had time to arrive, then `maxConnectionAgeGrace` for
/// the calls in flight. No call is lost: the client opens new streams elsewhere from the notice on.
extension Connection {
    /// Between the notice and the final GOAWAY: long enough for a client's streams sent before it saw the
    /// notice to arrive, as grpc-core's one round trip is.
    static let shutdownNoticeLead: Duration = .seconds(1)

    /// When a connection accepted at `now` retires: the age with ±10% jitter, so the connections a client
    /// opened together (after a deploy, say) do not all leave at once.
    static func retirement(after age: Duration?, now: UInt64) -> UInt64? {
        guard let age else { return nil }
        return now &+ UInt64(Double(age.nanoseconds) * Double.random(in: 0.9...1.1))
    }

    /// Sends the GOAWAY notice, then the final GOAWAY, then ends what is left after the grace.
    func retireForAge() {
        guard !closed, let session else { return }
        retiring = true
        core.logger.debug(
            "connection reached its maximum age; asking the client to move", metadata: ["peer": "\(peer)"])
        nghttp2_submit_shutdown_notice(session)
        markDirty()
        loop.schedule(after: Self.shutdownNoticeLead) { [weak self] in
            guard let self, !closed else { return }
            goAway()
            loop.schedule(after: core.configuration.maxConnectionAgeGrace) { [weak self] in
                self?.endStreamsAndClose()
            }
        }
    }

    /// The grace is over (an age's or a drain's): a server stream still open ends with UNAVAILABLE
    /// `SERVER_SHUTTING_DOWN`, what is queued is written, and the connection closes.
    func endStreamsAndClose() {
        guard !closed else { return }
        for call in calls.values where call.route?.streamingResponse == true { call.drainTimedOut() }
        flush()
        close()
    }
}
