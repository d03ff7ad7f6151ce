extension RPCClient {
    /// Counts a unary call asked for, and refuses it here (`RPCError.throttledByClient`) when the client's
    /// throttle says so (`ClientConfiguration.throttle`; off by default).
    func throttleRequest() throws(RPCError) {
        guard configuration.throttle != nil else { return }
        let send = throttle.withLock { $0?.request(now: monotonicNanos(), draw: Double.random(in: 0..<1)) }
        if send == false { throw .throttledByClient }
    }

    /// Counts the server's answer to a call the throttle let through: anything but UNAVAILABLE (an overload
    /// refusal, a peer out of reach) is an accept.
    func throttleAnswered(_ error: RPCError?) {
        guard configuration.throttle != nil, error?.code != .unavailable else { return }
        throttle.withLock { $0?.accepted(now: monotonicNanos()) }
    }
}

extension RPCError {
    /// A call the client refused itself, its peer having refused calls for overload (`ClientThrottle`): nothing
    /// was sent.
    public static let throttledByClient = RPCError(
        .unavailable, busyMessage,
        details: [.errorInfo(reason: "CLIENT_THROTTLED", domain: "kindred.rpc", metadata: [:])])
}
