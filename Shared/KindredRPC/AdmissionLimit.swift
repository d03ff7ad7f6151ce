/// How many unary calls one event loop runs at once. A call past the limit is refused at once (UNAVAILABLE,
/// `SERVER_OVERLOADED`, with `RetryInfo`) instead of queuing behind the others, so that under overload the
/// loop spends its time on the calls it admitted and a refusal costs next to nothing.
///
/// The limit follows the fastest call of each window (CoDel's insight): when even the quickest call that
/// finished in a window took longer than `target`, calls are waiting on something already saturated (the
/// cores, the database) and admitting more only lengthens every wait, so the limit shrinks in proportion;
/// while the fastest call stays under it and calls met the limit in the window, the limit grows. One slow kind
/// of call (a password hash) does not move the fastest, so it cannot shrink the limit on its own; a window
/// that never reached the limit leaves it alone. Time with nothing in flight heals the limit at the pace of
/// healthy windows, up to where it started: a loop that shrank in a burst and then went quiet would otherwise
/// refuse the next burst on an idle server. Events in, decisions out; times are injected.
struct AdmissionLimit {
    enum Decision: Equatable {
        case admit
        case refuse(retryAfter: Duration)
    }

    let settings: AdmissionSettings
    private(set) var limit: Double
    private(set) var inFlight = 0
    private var windowEnds: UInt64 = 0
    private var windowFastest = UInt64.max
    private var windowReachedLimit = false
    /// When the last admitted call departed leaving none in flight; nil while calls run.
    private var quietSince: UInt64?
    private let targetNanos: UInt64
    private let windowNanos: UInt64

    init(settings: AdmissionSettings = AdmissionSettings()) {
        self.settings = settings
        limit = Double(settings.initial)
        targetNanos = settings.target.nanoseconds
        windowNanos = settings.window.nanoseconds
    }

    /// A call asks to start at `now` (monotonic nanoseconds) and, admitted, holds a place until it departs.
    mutating func arrive(now: UInt64) -> Decision {
        let decision = arriveHoldingNoPlace(now: now)
        guard decision == .admit else { return decision }
        inFlight += 1
        quietSince = nil
        if Double(inFlight) >= limit.rounded(.down) { windowReachedLimit = true }
        return .admit
    }

    /// A call that holds no place asks to start at `now`: refused exactly when `arrive` would refuse, and
    /// admitted without counting (a client stream, whose uploader may take minutes to send it).
    mutating func arriveHoldingNoPlace(now: UInt64) -> Decision {
        if windowEnds == 0 { windowEnds = now + windowNanos }
        healAfterQuiet(now: now)
        guard Double(inFlight) < limit.rounded(.down) else {
            windowReachedLimit = true
            return .refuse(retryAfter: settings.retryAfter)
        }
        return .admit
    }

    /// An admitted call that started at `startedAt` finished at `now`; true when that ended a window, the only
    /// time `limit` is decided again.
    @discardableResult
    mutating func depart(startedAt: UInt64, now: UInt64) -> Bool {
        inFlight -= 1
        if inFlight == 0 { quietSince = now }
        windowFastest = min(windowFastest, now &- startedAt)
        guard now >= windowEnds else { return false }
        endWindow(now: now)
        return true
    }

    private mutating func endWindow(now: UInt64) {
        if windowFastest > targetNanos {
            // A standing queue: shrink in proportion to how far the fastest call overshot, at most by half.
            limit = max(
                Double(settings.minimum), limit * max(0.5, Double(targetNanos) / Double(windowFastest)))
        } else if windowReachedLimit {
            grow(upTo: Double(settings.maximum))
        }
        windowFastest = .max
        windowReachedLimit = false
        windowEnds = now + windowNanos
    }

    /// Each whole window the loop spent with nothing in flight counts as a healthy one, up to the initial limit.
    private mutating func healAfterQuiet(now: UInt64) {
        guard let since = quietSince, now >= since, now - since >= windowNanos else { return }
        let quietWindows = (now - since) / windowNanos
        quietSince = since + quietWindows * windowNanos
        let ceiling = Double(settings.initial)
        for _ in 0..<quietWindows {
            guard limit < ceiling else { return }
            grow(upTo: ceiling)
        }
    }

    private mutating func grow(upTo ceiling: Double) {
        limit = max(limit, min(ceiling, limit + max(1, limit / 10)))
    }
}

/// How a server's loops limit the unary calls they run at once (see `AdmissionLimit`). Off unless asked for:
/// the services turn it on (`--admission-target`); a test server or a fixture admits every call.
public struct AdmissionSettings: Sendable, Equatable {
    /// Off: every call is admitted, however many run.
    public var isEnabled = false
    /// The fastest call of a window must finish within this, or the limit shrinks.
    public var target: Duration = .milliseconds(20)
    public var window: Duration = .milliseconds(100)
    /// Calls a loop admits at once before anything was measured: as many as it would ever admit, so a burst
    /// on an idle server is never refused; the limit shrinks only when the fastest calls show a queue.
    public var initial = 2_048
    /// The limit never shrinks below this, so a loaded machine still serves a handful of callers at once. Past
    /// capacity the limit sits here, so the floor sets how many calls queue in each loop: at twice the knee, 8
    /// instead of 32 cut the admitted calls' worst p99 by a third at 92% of the goodput, and at the knee it shed
    /// fewer calls (Benchmarks README, "Session 26").
    public var minimum = 8
    public var maximum = 2_048
    /// What refused callers are told to wait before retrying.
    public var retryAfter: Duration = .milliseconds(250)

    public init() {}
}
