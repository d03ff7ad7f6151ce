/// The open loop's dispatcher, apart from any clock (times are durations since the load started, so a test
/// drives it with its own): call `n` is due at `schedule.due(n)`, whatever the answers to earlier calls are
/// doing. Asked at `now`, it says to wait for the next due time, to send the next call (however late: its
/// latency runs from its due time), or to stop. It never issues a call due at or after `duration`, nor
/// anything once `duration` has passed; a call whose `deadline` (from its due time) passed before the tool got
/// to it is not sent at all (`expired`), as its answer could not count; calls due before `duration` and not
/// reached by then are `unsent`. A tool that falls behind so stays bounded: it catches up by skipping, never by
/// a backlog that outlives the run.
public struct OpenLoopTimetable: Sendable {
    public enum Step: Sendable, Equatable {
        /// Nothing is due before this time.
        case wait(until: Duration)
        /// Send call `index`, due at `due`.
        case send(index: Int, due: Duration)
        /// The duration is over: send nothing more.
        case stop
    }

    public let schedule: ArrivalSchedule
    public let duration: Duration
    public let deadline: Duration
    /// The next call not yet sent or skipped.
    public private(set) var next = 0
    /// Calls skipped because their deadline passed before the tool could send them.
    public private(set) var expired = 0
    /// Calls due within the duration that were neither sent nor skipped when it ended.
    public private(set) var unsent = 0
    private var stopped = false

    public init(schedule: ArrivalSchedule, duration: Duration, deadline: Duration) {
        self.schedule = schedule
        self.duration = duration
        self.deadline = deadline
    }

    /// What to do at `now`.
    public mutating func step(at now: Duration) -> Step {
        guard !stopped else { return .stop }
        while true {
            let due = schedule.due(next)
            guard due < duration, now < duration else {
                stopped = true
                unsent = max(0, schedule.callsDue(within: duration) - next)
                return .stop
            }
            guard due <= now else { return .wait(until: due) }
            next += 1
            guard now - due < deadline else {
                expired += 1
                continue
            }
            return .send(index: next - 1, due: due)
        }
    }
}

/// How late the tool itself sent the calls of the open loop: each call's lag, from its due time to the moment
/// it was handed to the RPC client (a saturated generator, not the stack, is what makes it grow), and how many
/// were later than `tolerance`, the margin a timer and a task switch take on an idle machine.
public struct SendLateness: Sendable, Equatable {
    public static let tolerance: Duration = .milliseconds(5)

    public var lags = LatencyHistogram()
    public var late = 0

    public init() {}

    public mutating func record(lag: Duration) {
        lags.record(lag)
        if lag > Self.tolerance { late += 1 }
    }

    public mutating func merge(_ other: SendLateness) {
        lags.merge(other.lags)
        late += other.late
    }
}
