import KindredPostgres

/// The sequencer: each instance polls for committed events without a cursor and numbers them under the
/// outbox's advisory lock, then prunes now and then.
extension EventFeed {
    /// Events numbered per sequencer transaction.
    static let sequencerBatch = 1_000

    /// Runs until the feed closes, a round every `pollInterval`, or every `burstInterval` after a round that
    /// numbered events. An outage is logged once when it starts and once when it ends.
    func runSequencer() async {
        let clock = ContinuousClock()
        var nextPrune = clock.now
        var isFailing = false
        var numberedLastRound = false
        while !Task.isCancelled {
            do {
                numberedLastRound = try await sequenceAll(polling: !numberedLastRound)
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
                numberedLastRound = false
            }
            try? await Task.sleep(for: numberedLastRound ? options.burstInterval : options.pollInterval)
        }
    }

    /// Numbers every committed event waiting for a cursor, a batch per transaction, and hands what it numbered
    /// to this process's tail (sparing it the read its own notification would start); returns whether it
    /// numbered any. With `polling`, it first asks whether any wait; without (the previous round numbered
    /// some, so more are likely coming) it runs the transaction straight away: one round trip like the poll,
    /// so under sustained load the poll is saved every round, and a burst's end costs one empty transaction.
    @discardableResult
    func sequenceAll(polling: Bool = true) async throws -> Bool {
        if polling, try await !outbox.hasUnsequencedEvents(pool) { return false }
        var numbered = 0
        while true {
            let batch = try await outbox.sequence(pool, limit: Self.sequencerBatch, opening: cipher)
            if let events = batch.events { tail.extend(with: events) }
            numbered += batch.count
            if batch.count < Self.sequencerBatch { return numbered > 0 }
        }
    }
}
