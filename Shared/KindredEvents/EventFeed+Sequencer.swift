import KindredPostgres

/// The sequencer: each instance polls for committed events without a cursor and numbers them under the
/// outbox's advisory lock, then prunes now and then.
extension EventFeed {
    /// Events numbered per sequencer transaction.
    static let sequencerBatch = 1_000

    /// Polls until the feed closes. An outage is logged once when it starts and once when it ends.
    func runSequencer() async {
        let clock = ContinuousClock()
        var nextPrune = clock.now
        var isFailing = false
        while !Task.isCancelled {
            do {
                try await sequenceAll()
                if clock.now >= nextPrune {
                    let pruned = try await outbox.prune(olderThan: options.retention, pool)
                    if pruned > 0 { logger.info("pruned old events", metadata: ["events": "\(pruned)"]) }
                    nextPrune = clock.now + options.pruneInterval
                }
                if isFailing { logger.info("event sequencer recovered") }
                isFailing = false
            } catch {
                if !isFailing && !Task.isCancelled {
                    logger.warning("event sequencer failed; retrying", metadata: ["error": "\(error)"])
                }
                isFailing = true
            }
            try? await Task.sleep(for: options.pollInterval)
        }
    }

    /// Numbers every committed event waiting for a cursor, a batch per transaction.
    func sequenceAll() async throws {
        guard try await outbox.hasUnsequencedEvents(pool) else { return }
        while try await outbox.sequence(pool, limit: Self.sequencerBatch) == Self.sequencerBatch {}
    }
}
