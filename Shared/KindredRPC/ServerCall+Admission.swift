/// Whether a unary call's handler starts: its deadline must not have passed, and its loop must have room
/// (`AdmissionLimit`). Server streams, client streams, health checks and reflection are not limited: a stream
/// holds its place for as long as it is open, and probes must answer however busy the service is.
extension ServerCall {
    /// Takes a place for the call, or answers it at once (then its handler never starts).
    func admit() -> Bool {
        guard core.configuration.admission.isEnabled, route.isAdmissionLimited else { return true }
        if let deadline, deadline <= .now {
            perform(state.shed(RPCError.deadlinePassedBeforeStart))
            return false
        }
        let now = monotonicNanos()
        // The loop's limit, made with the settings of the first server on it that asks (a small value: no box).
        let made = loop.admission == nil
        var limit = loop.admission ?? AdmissionLimit(settings: core.configuration.admission)
        let decision = limit.arrive(now: now)
        loop.admission = limit
        if made { publish(limit) }
        switch decision {
        case .admit:
            admittedAt = now
            return true
        case .refuse(let retryAfter):
            core.shedCalls.add(0)
            perform(state.shed(RPCError.serverOverloaded(retryAfter: retryAfter)))
            return false
        }
    }

    /// Gives the call's place back, once, when its outcome is decided or its client left.
    func leaveAdmission() {
        guard admittedAt != 0 else { return }
        let decided = loop.admission?.depart(startedAt: admittedAt, now: monotonicNanos()) ?? false
        admittedAt = 0
        if decided, let limit = loop.admission { publish(limit) }
    }

    /// Shows `limit` in the `kindred_rpc_admission_limit` gauge: when it is made and each time a window decides
    /// it again, not on every call (the loops' slots share a cache line).
    private func publish(_ limit: AdmissionLimit) {
        guard loop.index < core.admissionLimits.count else { return }
        core.admissionLimits.store(loop.index, Int(limit.limit))
    }
}

extension Route {
    var isAdmissionLimited: Bool {
        !streamingRequest && !streamingResponse && !descriptor.service.hasPrefix("grpc.")
    }
}

extension RPCError {
    /// A unary call refused because its loop is at its limit: nothing ran, so any retry is safe.
    public static func serverOverloaded(retryAfter: Duration) -> RPCError {
        RPCError(
            .unavailable, "The service is busy. Please try again in a moment.",
            details: [
                .errorInfo(reason: "SERVER_OVERLOADED", domain: "kindred.rpc", metadata: [:]),
                .retryInfo(retryDelay: retryAfter),
            ])
    }

    /// Whether this is a server's `serverOverloaded` refusal: its delay, nil for any other error.
    public var overloadRetryDelay: Duration? {
        guard code == .unavailable, details.errorInfoReason == "SERVER_OVERLOADED" else { return nil }
        for case .retryInfo(let delay) in details { return delay }
        return nil
    }

    /// The call's deadline passed before its handler could start: nothing ran.
    static let deadlinePassedBeforeStart = RPCError(
        .deadlineExceeded, "The request took too long. Please try again.")
}
