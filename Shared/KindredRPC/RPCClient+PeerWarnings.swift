import Logging
import Synchronization

/// A peer that is down or too slow, reported once at warning by the layer that gives up on the call: after
/// the last retry (never per attempt), and nowhere above (callers keep the error as a cause; the server's
/// access line shows it at info). While a method keeps failing, one line per `peerWarningInterval` counts
/// the failures in between, so an outage stays a few lines.
extension RPCClient {
    /// Reports `error` if it says the peer is unavailable or did not answer in time; other answers are the
    /// peer's word on the call, for the caller to judge.
    func reportPeerFailure(_ error: RPCError, method: MethodDescriptor, deadlineCounts: Bool = true) {
        let timedOut = deadlineCounts && error.code == .deadlineExceeded
        guard error.code == .unavailable || timedOut else { return }
        let suppressed = peerWarnings.withLock {
            $0.admit(method.path, at: .now, interval: configuration.peerWarningInterval)
        }
        guard let suppressed else { return }
        var fields: Logger.Metadata = [
            "peer": .string(target.description), "rpc": .string(method.path),
            "status": .string(error.code.description), "error": .string(error.message),
        ]
        if suppressed > 0 { fields["suppressed"] = .string(String(suppressed)) }
        configuration.logger.warning("peer call failed", metadata: fields)
    }
}

/// Per method, until when its failures go unreported after a warning, and how many did meanwhile.
struct PeerWarningWindows {
    private var windows: [String: (until: ContinuousClock.Instant, suppressed: Int)] = [:]

    /// The failures kept quiet since the last warning when one is due for `method` at `now` (and a new
    /// window opens), nil while its window lasts (and this failure is counted).
    mutating func admit(_ method: String, at now: ContinuousClock.Instant, interval: Duration) -> Int? {
        if let window = windows[method], now < window.until {
            windows[method]?.suppressed += 1
            return nil
        }
        defer { windows[method] = (now + interval, 0) }
        return windows[method]?.suppressed ?? 0
    }
}
