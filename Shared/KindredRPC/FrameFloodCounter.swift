/// Counts a connection's frames that carry no progress over fixed windows; more than `limit` in one window
/// is a flood. Such frames cost the server a parse and often an answer (a PING ACK, a SETTINGS ACK) while
/// moving no call forward, so an unchecked stream of them burns a core per connection.
struct FrameFloodCounter {
    let limit: Int
    let window: UInt64
    private var windowStart: UInt64
    private(set) var count = 0

    init(limit: Int, window: Duration, now: UInt64) {
        self.limit = limit
        self.window = window.nanoseconds
        windowStart = now
    }

    /// Records one frame without progress at `now`; true once the current window holds more than `limit`.
    mutating func record(now: UInt64) -> Bool {
        if now &- windowStart >= window {
            windowStart = now
            count = 0
        }
        count += 1
        return count > limit
    }
}
