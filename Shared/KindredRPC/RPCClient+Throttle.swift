extension RPCClient {
    /// Runs a call with one answer (unary or client-streaming) under the client's throttle: refused here when
    /// the throttle says so, its answer counted, and a failure's peer reported (`reportPeerFailure`).
    func throttled<Value>(method: MethodDescriptor, _ call: () async throws(RPCError) -> Value)
        async throws(RPCError) -> Value
    {
        try throttleRequest()
        do throws(RPCError) {
            let value = try await call()
            throttleAnswered(nil)
            return value
        } catch {
            throttleAnswered(error)
            reportPeerFailure(error, method: method)
            throw error
        }
    }

    /// Refuses a call here (`RPCError.throttledByClient`) when the client's throttle says so
    /// (`ClientConfiguration.throttle`), asking for the delay the peer last asked for.
    private func throttleRequest() throws(RPCError) {
        guard configuration.throttle != nil else { return }
        let refusal: Duration? = throttle.withLock { throttle in
            guard throttle?.request(now: monotonicNanos(), draw: Double.random(in: 0..<1)) == false else {
                return nil
            }
            return throttle?.retryAfter
        }
        if let refusal { throw .throttledByClient(retryAfter: refusal) }
    }

    /// Counts the peer's answer to a call the throttle let through: anything but an overload refusal is an
    /// accept, and a refusal counts whether or not it named a delay.
    private func throttleAnswered(_ error: RPCError?) {
        guard configuration.throttle != nil else { return }
        let answer: ClientThrottle.Answer =
            if let error, error.isServerOverloaded {
                .refusedForOverload(retryAfter: error.serverOverloadDelay)
            } else {
                .accepted
            }
        throttle.withLock { $0?.answered(now: monotonicNanos(), answer) }
    }
}

extension RPCError {
    /// A call the client refused itself, its peer having refused calls for overload (`ClientThrottle`): nothing
    /// was sent; whoever started the work backs off as the peer last asked (`overloadRetryDelay`).
    public static func throttledByClient(retryAfter: Duration) -> RPCError {
        // The server's refusal with the reason changed: the same words and delay for whoever started the work.
        var refusal = serverOverloaded(retryAfter: retryAfter)
        refusal.details[0] = .errorInfo(reason: "CLIENT_THROTTLED", domain: "kindred.rpc", metadata: [:])
        return refusal
    }

    /// Whether the client refused this call itself (`throttledByClient`): nothing reached the peer.
    public var isThrottledByClient: Bool {
        code == .unavailable && details.errorInfoReason == "CLIENT_THROTTLED"
    }
}
