/// Counts a connection's frames that carry no progress over fixed windows; more than `limit` in one window
/// is a flood. Such frames cost the server a parse and often an answer (a PING ACK, a SETTINGS ACK) while
/// moving no call forward, so an unchecked stream of them burns a core per connection.
struct FrameFloodCounter {
    /// What a frame without progress was, so that the flood's log line names what the peer sent.
    enum Kind: Int, CaseIterable, Sendable {
        case emptyData, dataForAStreamThatIsGone, windowUpdate, ping, settings, priority, goAway, pushPromise
        case unknownType, rstStream
        /// nghttp2's own cut: PING and SETTINGS acknowledgements queued faster than the peer reads them.
        case unsentAcknowledgements

        var name: String {
            switch self {
            case .emptyData: "empty_data"
            case .dataForAStreamThatIsGone: "data_for_a_stream_that_is_gone"
            case .windowUpdate: "window_update"
            case .ping: "ping"
            case .settings: "settings"
            case .priority: "priority"
            case .goAway: "goaway"
            case .pushPromise: "push_promise"
            case .unknownType: "unknown_type"
            case .rstStream: "rst_stream"
            case .unsentAcknowledgements: "unsent_acknowledgements"
            }
        }
    }

    let limit: Int
    let window: UInt64
    private var windowStart: UInt64
    private(set) var count = 0
    /// The current window's count of each kind, indexed by `Kind.rawValue`.
    private(set) var counts = [Int](repeating: 0, count: Kind.allCases.count)

    init(limit: Int, window: Duration, now: UInt64) {
        self.limit = limit
        self.window = window.nanoseconds
        windowStart = now
    }

    /// Records one frame without progress at `now`; true once the current window holds more than `limit`.
    mutating func record(_ kind: Kind, now: UInt64) -> Bool {
        if now &- windowStart >= window {
            windowStart = now
            count = 0
            for index in counts.indices { counts[index] = 0 }
        }
        count += 1
        counts[kind.rawValue] += 1
        return count > limit
    }

    /// The current window's kinds, most frequent first: `window_update:700,ping:301`.
    var breakdown: String {
        Kind.allCases.filter { counts[$0.rawValue] > 0 }
            .sorted { (-counts[$0.rawValue], $0.rawValue) < (-counts[$1.rawValue], $1.rawValue) }
            .map { "\($0.name):\(counts[$0.rawValue])" }.joined(separator: ",")
    }
}
