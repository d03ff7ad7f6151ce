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
        guard error.code == .unavailable || (deadlineCounts && error.code == .deadlineExceeded) else { return }
        let now = ContinuousClock.now
        let interval = configuration.peerWarningInterval
        let suppressed = peerWarnings.withLock { windows -> Int? in
            if let window = windows[method.path], now < window.until {
                windows[method.path]?.suppressed += 1
                return nil
            }
            defer { windows[method.path] = PeerWarningWindow(until: now + interval) }
            return windows[method.path]?.suppressed ?? 0
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

/// How long a method's failures go unreported after a warning, and how many did meanwhile.
struct PeerWarningWindow {
    var until: ContinuousClock.Instant
    var suppressed = 0
}
