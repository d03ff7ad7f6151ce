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
        switch loop.admissionLimit(core.configuration.admission).arrive(now: now) {
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
        loop.admissionLimit(core.configuration.admission).depart(startedAt: admittedAt, now: monotonicNanos())
        admittedAt = 0
    }
}

extension Route {
    var isAdmissionLimited: Bool {
        !streamingRequest && !streamingResponse && !descriptor.service.hasPrefix("grpc.")
    }
}

extension EventLoop {
    /// This loop's limit, made with the first server's settings that asks for it (loop thread only).
    func admissionLimit(_ settings: AdmissionSettings) -> AdmissionLimitBox {
        if let admission { return admission }
        let made = AdmissionLimitBox(AdmissionLimit(settings: settings))
        admission = made
        return made
    }
}

/// The loop's `AdmissionLimit`, kept by reference so that arrivals and departures mutate it in place.
final class AdmissionLimitBox {
    var limit: AdmissionLimit
    init(_ limit: AdmissionLimit) { self.limit = limit }

    func arrive(now: UInt64) -> AdmissionLimit.Decision { limit.arrive(now: now) }
    func depart(startedAt: UInt64, now: UInt64) { limit.depart(startedAt: startedAt, now: now) }
}

extension RPCError {
    /// A unary call refused because its loop is at its limit: nothing ran, so any retry is safe.
    static func serverOverloaded(retryAfter: Duration) -> RPCError {
        RPCError(
            .unavailable, "The service is busy. Please try again in a moment.",
            details: [
                .errorInfo(reason: "SERVER_OVERLOADED", domain: "kindred.rpc", metadata: [:]),
                .retryInfo(retryDelay: retryAfter),
            ])
    }

    /// The call's deadline passed before its handler could start: nothing ran.
    static let deadlinePassedBeforeStart = RPCError(
        .deadlineExceeded, "The request took too long. Please try again.")
}
