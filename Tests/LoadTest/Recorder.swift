import KindredRPC
import LoadTestKit
import Synchronization

/// Every call's outcome, by RPC, for the whole run and for the live line's last window, how late the open
/// loop sent its calls, and its calls second by second (`LoadTimeline`, from `startTimeline(at:)`); shared by
/// all virtual users (one lock, held for a few increments).
final class Recorder: Sendable {
    struct Window {
        var calls = 0
        var errors = 0
        var latencies = LatencyHistogram()
    }

    struct State {
        var tallies: [String: RPCTally] = [:]
        var window = Window()
        var lateness = SendLateness()
        /// Due calls not sent: their deadline passed before the tool got to them.
        var expired = 0
        /// Calls the hard stop cancelled.
        var stopped = 0
        /// When the load starts: the open loop's seconds count from it.
        var timelineOrigin: ContinuousClock.Instant?
        var timeline = LoadTimeline()
    }

    /// Each call's deadline, from its due time.
    let deadline: Duration
    private let state = Mutex(State())
    let connectedUsers = Atomic(0)
    let openStreams = Atomic(0)

    init(deadline: Duration) {
        self.deadline = deadline
    }

    /// Runs `call` as `method` (reported under `label` when given, for a named share of a method's calls),
    /// timed from `due` (the open loop's due time) or from now; a thrown RPCError that `isExpected` accepts
    /// is an expected refusal, any other error a failure by its status and reason. A due call whose deadline
    /// passed before it could be sent is not sent (the tool was late, not the stack). True when the call
    /// succeeded.
    @discardableResult
    func time(
        _ method: MethodDescriptor, as label: String? = nil, from due: ContinuousClock.Instant? = nil,
        isExpected: (RPCError) -> Bool = { _ in false }, _ call: () async throws -> Void
    ) async -> Bool {
        let sending = ContinuousClock.now
        let started = due ?? sending
        if due != nil, sending - started >= deadline {
            state.withLock { $0.expired += 1 }
            return false
        }
        var failure: RPCTally.Failure?
        var refused = false
        do {
            try await call()
        } catch let error as RPCError where isExpected(error) {
            refused = true
        } catch {
            failure = Self.failure(of: error)
        }
        let lag = due.map { _ in sending - started }
        let ended = ContinuousClock.now
        record(
            label ?? method.path, latency: ended - started, failure: failure, refused: refused, lag: lag,
            answeredAfterSending: ended - sending, due: due)
        return failure == nil && !refused
    }

    /// An error as the report counts it: an RPCError by its status and `ErrorInfo` reason (a call the run's
    /// hard stop cancelled: `TOOL_STOPPED`), anything else as the tool's own.
    static func failure(of error: any Error) -> RPCTally.Failure {
        guard let error = error as? RPCError else {
            return RPCTally.Failure(status: "CLIENT", reason: "\(error)")
        }
        if error.code == .cancelled, Task.isCancelled {
            return RPCTally.Failure(status: "\(error.code)", reason: RPCTally.Failure.stopped)
        }
        return RPCTally.Failure(status: "\(error.code)", reason: error.reason ?? RPCTally.Failure.noReason)
    }

    /// Records one outcome under `rpc` (a method's path, or a label); `lag`, for an open-loop call, is how
    /// late the tool sent it; `answeredAfterSending`, for a call the stack answered, how long that took (a
    /// shed call's refusal is timed by it: the tool's own lateness is not the stack's); `due`, for an open-loop
    /// call, when it was due, the second of the timeline it counts in.
    func record(
        _ rpc: String, latency: Duration, failure: RPCTally.Failure? = nil, refused: Bool = false,
        lag: Duration? = nil, answeredAfterSending: Duration? = nil, due: ContinuousClock.Instant? = nil
    ) {
        state.withLock { state in
            if let due, let origin = state.timelineOrigin {
                let outcome: LoadTimeline.Outcome =
                    switch failure {
                    case nil: .answered(latency: latency)
                    case let failure? where failure.isShed: .shed
                    case _?: .failed
                    }
                state.timeline.record(due: due - origin, outcome)
            }
            if let failure {
                state.tallies[rpc, default: RPCTally()].failures[failure, default: 0] += 1
                if failure.isShed, let answeredAfterSending {
                    state.tallies[rpc, default: RPCTally()].shedLatencies.record(answeredAfterSending)
                }
                state.window.errors += 1
                if failure.reason == RPCTally.Failure.stopped { state.stopped += 1 }
            } else {
                state.tallies[rpc, default: RPCTally()].latencies.record(latency)
                if refused { state.tallies[rpc, default: RPCTally()].expectedRefusals += 1 }
                state.window.latencies.record(latency)
            }
            state.window.calls += 1
            if let lag { state.lateness.record(lag: lag) }
        }
    }

    /// Counts the open loop's calls by their second from `origin`, the load's start.
    func startTimeline(at origin: ContinuousClock.Instant) {
        state.withLock { $0.timelineOrigin = origin }
    }

    var timeline: LoadTimeline { state.withLock { $0.timeline } }

    /// The window since the last call, and a new one started.
    func takeWindow() -> Window {
        state.withLock { state in
            defer { state.window = Window() }
            return state.window
        }
    }

    /// Every RPC's tally, named `<Service>/<Method>` (a method's path without its first `/`).
    var results: [String: RPCTally] {
        let tallies = state.withLock { $0.tallies }
        return tallies.reduce(into: [:]) { results, entry in
            results[String(entry.key.trimmingPrefix("/")), default: RPCTally()].merge(entry.value)
        }
    }

    /// How late the open loop's calls went out, how many expired unsent, how many the hard stop cut off.
    var schedule: (lateness: SendLateness, expired: Int, stopped: Int) {
        state.withLock { ($0.lateness, $0.expired, $0.stopped) }
    }
}

extension MethodDescriptor {
    /// How the report names the method: `<Service>/<Method>`, the service fully qualified.
    var rpcName: String { "\(service)/\(method)" }
}
