/// Jittered exponential pauses between attempts at something that failed (a query, a stream).
struct Backoff {
    private let initial: Duration
    private let ceiling: Duration
    private var current: Duration

    init(initial: Duration = .milliseconds(100), ceiling: Duration = .seconds(5)) {
        self.initial = initial
        self.ceiling = ceiling
        self.current = initial
    }

    /// Back to the shortest pause, after a success.
    mutating func reset() { current = initial }

    /// The next pause: between half and all of the current step, which doubles up to the ceiling.
    mutating func next() -> Duration {
        defer { current = min(current * 2, ceiling) }
        return current * Double.random(in: 0.5...1.0)
    }
}
