/// Whether a call's handler starts: its deadline must not have passed, and its loop must have room
/// (`AdmissionLimit`). A unary call holds a place until it ends. A client stream starts only where a unary
/// call would, but holds no place: its uploader may take minutes, and the place is for work, not for waiting on
/// a phone's network. Server and bidirectional streams, health checks and reflection are not limited: a watch
/// is open for as long as its client stays, and probes must answer however busy the service is.
extension ServerCall {
    /// Takes a place for the call (none for a client stream), or answers it at once (then its handler never
    /// starts).
    func admit() -> Bool {
        guard core.configuration.admission.isEnabled, let admission = route.admission else { return true }
        if let deadline, deadline <= .now {
            perform(state.shed(RPCError.deadlinePassedBeforeStart))
            return false
        }
        let now = monotonicNanos()
        // The loop's limit, made with the settings of the first server on it that asks (a small value: no box).
        let made = loop.admission == nil
        var limit = loop.admission ?? AdmissionLimit(settings: core.configuration.admission)
        let decision =
            admission == .holdsPlace ? limit.arrive(now: now) : limit.arriveHoldingNoPlace(now: now)
        loop.admission = limit
        if made { publish(limit) }
        switch decision {
        case .admit:
            if admission == .holdsPlace { admittedAt = now }
            return true
        case .refuse(let retryAfter):
            core.shedCalls.add(0)
            perform(state.shed(core.overloadRefusal.error(retryAfter: retryAfter)))
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

/// How the admission limit applies to a route's calls.
enum RouteAdmission {
    /// Admitted below the limit, holding a place until the call ends (unary).
    case holdsPlace
    /// Admitted below the limit, holding none (a client stream).
    case startsOnly
}

extension Route {
    /// Nil when the limit does not apply: server and bidirectional streams, health and reflection.
    var admission: RouteAdmission? {
        guard !streamingResponse, !descriptor.service.hasPrefix("grpc.") else { return nil }
        return streamingRequest ? .startsOnly : .holdsPlace
    }
}

extension RPCError {
    /// What a person is told of a call refused for overload, by the server or by their own client.
    static let busyMessage = "The service is busy. Please try again in a moment."

    /// A call refused because its loop is at its limit: nothing ran, so any retry is safe.
    public static func serverOverloaded(retryAfter: Duration) -> RPCError {
        RPCError(
            .unavailable, busyMessage,
            details: [
                .errorInfo(reason: "SERVER_OVERLOADED", domain: "kindred.rpc", metadata: [:]),
                .retryInfo(retryDelay: retryAfter),
            ])
    }

    /// The delay taken for a server's overload refusal that names none (another server's may not).
    public static let unnamedOverloadDelay: Duration = .seconds(1)

    /// Whether this is a refusal for overload, a server's (`serverOverloaded`, `unnamedOverloadDelay` if it named
    /// no delay) or the client's own (`throttledByClient`): its delay, nil for any other error. Never retried;
    /// passed up to whoever started the work (`PeerCall`).
    public var overloadRetryDelay: Duration? {
        if isServerOverloaded { return retryDelay ?? Self.unnamedOverloadDelay }
        return isThrottledByClient ? retryDelay : nil
    }

    /// Whether this is a server's `serverOverloaded` refusal: its delay, nil for any other error (or a refusal
    /// that named none).
    var serverOverloadDelay: Duration? {
        isServerOverloaded ? retryDelay : nil
    }

    /// Whether a server refused this call for overload (`serverOverloaded`), with or without a delay.
    var isServerOverloaded: Bool {
        code == .unavailable && details.errorInfoReason == "SERVER_OVERLOADED"
    }

    private var retryDelay: Duration? {
        for case .retryInfo(let delay) in details { return delay }
        return nil
    }

    /// The call's deadline passed before its handler could start: nothing ran.
    static let deadlinePassedBeforeStart = RPCError(
        .deadlineExceeded, "The request took too long. Please try again.")
}
