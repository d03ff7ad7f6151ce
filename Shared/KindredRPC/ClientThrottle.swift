import Synchronization

/// Client-side adaptive throttling, as Google's SRE book describes it ("Handling Overload"): a client counts,
/// over the last `window`, the calls it was asked to make (`requests`, those it refused itself included) and those
/// the server accepted (`accepts`: every answer but an overload refusal, `SERVER_OVERLOADED`), and refuses a new
/// call itself with probability max(0, (requests − k·accepts) / (requests + 1)). Below overload accepts keep up
/// with requests and nothing is refused; past it the server is sent about `k` times what it serves rather than
/// everything, and a call refused here costs neither the network nor the server's loop. A sent call counts once
/// its answer is known, so calls in flight, a burst at start above all, never look refused. A peer that is down
/// is no reason to throttle: its calls fail on their own, and the connection's backoff paces the reconnects.
/// Events in, decisions out: the time and the random draw are injected.
public struct ClientThrottle: Sendable {
    public struct Settings: Sendable, Equatable {
        /// How many calls are sent for each one the server accepts before the client refuses any: 2 in the
        /// book; lower refuses sooner and wastes less of an overloaded server.
        public var k: Double = 2
        /// How far back requests and accepts count.
        public var window: Duration = .seconds(10)
        /// The window's slices: counts leave it a slice at a time.
        public var slices = 10

        public init(k: Double = 2) {
            self.k = k
        }
    }

    struct Slice {
        var start: UInt64 = 0
        var requests = 0
        var accepts = 0
    }

    let settings: Settings
    private var slices: [Slice]
    private let sliceNanos: UInt64
    private(set) var requests = 0
    private(set) var accepts = 0
    /// The delay the server last asked for in an overload refusal: what the client's own refusals ask too.
    private(set) var retryAfter: Duration = RPCError.unnamedOverloadDelay

    public init(settings: Settings) {
        precondition(settings.k > 0 && settings.slices > 0, "a throttle needs k > 0 and at least one slice")
        self.settings = settings
        slices = Array(repeating: Slice(), count: settings.slices)
        sliceNanos = max(1, settings.window.nanoseconds / UInt64(settings.slices))
    }

    /// The chance that a call asked for now is refused here.
    var refusalProbability: Double {
        max(0, (Double(requests) - settings.k * Double(accepts)) / Double(requests + 1))
    }

    /// A call is asked for at `now` (monotonic nanoseconds): sent unless `draw` (uniform in 0..<1, drawn only
    /// when the probability is above 0) falls under the refusal probability. A call refused here counts as a
    /// request at once; a sent one when it is answered (`answered`).
    public mutating func request(now: UInt64, draw: @autoclosure () -> Double) -> Bool {
        advance(to: now)
        let probability = refusalProbability
        guard probability > 0, draw() < probability else { return true }
        count(now, accepted: false)
        return false
    }

    /// How the server answered a sent call.
    public enum Answer: Sendable, Equatable {
        /// Anything but an overload refusal: the server took the call (whatever it then answered).
        case accepted
        /// Refused for overload (`SERVER_OVERLOADED`), asking for `retryAfter` (nil: the refusal named no delay,
        /// and the last one stands).
        case refusedForOverload(retryAfter: Duration?)
    }

    /// The server answered a sent call at `now`.
    public mutating func answered(now: UInt64, _ answer: Answer) {
        advance(to: now)
        guard case .refusedForOverload(let delay) = answer else { return count(now, accepted: true) }
        if let delay { retryAfter = delay }
        count(now, accepted: false)
    }

    private mutating func count(_ now: UInt64, accepted: Bool) {
        let slice = index(now)
        slices[slice].requests += 1
        requests += 1
        if accepted {
            slices[slice].accepts += 1
            accepts += 1
        }
    }

    private func index(_ now: UInt64) -> Int { Int((now / sliceNanos) % UInt64(slices.count)) }

    /// On entering a new slice, the slices that began a whole window or more before it leave the counts.
    private mutating func advance(to now: UInt64) {
        let start = now - now % sliceNanos
        guard slices[index(now)].start != start else { return }
        let windowNanos = sliceNanos * UInt64(slices.count)
        for position in slices.indices where slices[position].start + windowNanos <= start {
            requests -= slices[position].requests
            accepts -= slices[position].accepts
            slices[position] = Slice()
        }
        slices[index(now)].start = start
    }
}

extension ClientThrottle.Settings {
    /// What a `ClientConfiguration()` starts with: the process's choice (`useForEveryClient`), off unless made.
    public static var processDefault: Self? { processWide.withLock { $0 } }

    /// Makes every `ClientConfiguration` created from now on throttle itself with `settings` (nil: not at all).
    /// A service calls this once at start, before it creates its clients, so each of its peers is spared the
    /// calls it would only refuse.
    public static func useForEveryClient(_ settings: Self?) {
        processWide.withLock { $0 = settings }
    }

    private static let processWide = Mutex<Self?>(nil)
}
