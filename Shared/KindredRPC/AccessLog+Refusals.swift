import Logging

/// The lines of refused connections (a TLS handshake refused, a flood of frames ended): one each, as long as
/// the whole server writes no more than a few a second; past that, counted and summarized once a second,
/// since a client that reconnects in a loop could otherwise write one line per connection it opens.
extension AccessLog {
    /// Writes `message` at `level` for a refused connection, or counts it under `kind` for the summary.
    func connectionRefused(
        _ message: Logger.Message, kind: String, level: Logger.Level, metadata: Logger.Metadata,
        on loop: EventLoop
    ) {
        guard logger.logLevel <= level else { return }
        let decision = refusals.withLock { $0.admit(RefusalKey(kind: kind, level: level), now: loop.now) }
        switch decision {
        case .write:
            logger.log(level: level, message, metadata: metadata)
        case .count(let armSummaryAt):
            guard let armSummaryAt else { return }
            let delay = Duration.nanoseconds(Int64(bitPattern: armSummaryAt &- min(armSummaryAt, loop.now)))
            loop.schedule(after: delay) { [self] in writeRefusalSummary() }
        }
    }

    /// One line with the count of each kind of refusal not written, at the highest of their levels.
    func writeRefusalSummary() {
        guard let counts = refusals.withLock({ $0.takeSummary() }) else { return }
        var fields: Logger.Metadata = [:]
        for (key, count) in counts { fields[key.kind] = "\(count)" }
        let level = counts.keys.map(\.level).max() ?? .notice
        logger.log(level: level, "refused connections summarized", metadata: fields)
    }
}

/// What refused connections are counted by: the kind (`tls_plaintext_client`, `frame_flood`) and its level.
struct RefusalKey: Hashable {
    let kind: String
    let level: Logger.Level
}
