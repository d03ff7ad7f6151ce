extension RPCClient {
    /// Refuses a unary call here (`RPCError.throttledByClient`) when the client's throttle says so
    /// (`ClientConfiguration.throttle`), asking for the delay the peer last asked for.
    func throttleRequest() throws(RPCError) {
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
    /// accept.
    func throttleAnswered(_ error: RPCError?) {
        guard configuration.throttle != nil else { return }
        let refusal = error?.serverOverloadDelay
        throttle.withLock { $0?.answered(now: monotonicNanos(), overloadRefusal: refusal) }
    }
}

extension RPCError {
    /// A call the client refused itself, its peer having refused calls for overload (`ClientThrottle`): nothing
    /// was sent; whoever started the work backs off as the peer last asked (`overloadRetryDelay`).
    public static func throttledByClient(retryAfter: Duration) -> RPCError {
        overloadRefusal(reason: "CLIENT_THROTTLED", retryAfter: retryAfter)
    }
}
