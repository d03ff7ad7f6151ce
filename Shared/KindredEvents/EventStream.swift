import KindredPostgres
internal import KindredThreads

/// The events of an outbox after a cursor, in cursor order: first those already stored, a page at a time,
/// then each new one as it is sequenced. It never ends by itself: it ends (nil) when the feed closes and
/// throws `CancellationError` when the reading task is cancelled (a client gone). While PostgreSQL is
/// unreachable it waits and retries, then carries on after the last event it delivered. It throws
/// `EventsPruned` when the events right after its cursor were pruned, and any other database error.
public struct EventStream: AsyncSequence, Sendable {
    public typealias Element = OutboxEvent
    let feed: EventFeed
    let after: Int64

    /// Starts reading after the stream's cursor.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(feed: feed, last: after)
    }

    /// Reads one event or one batch at a time; holds at most one page.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let feed: EventFeed
        var last: Int64
        var pending: ArraySlice<OutboxEvent> = []

        /// The next event; nil once the feed is closed.
        public mutating func next() async throws -> OutboxEvent? {
            guard try await fill() else { return nil }
            let event = pending.removeFirst()
            last = event.cursor
            return event
        }

        /// The next events, as many as one read brought (a page at most, those sequenced together when
        /// caught up), at least one; nil once the feed is closed. For a reader whose cost is per batch.
        public mutating func nextBatch() async throws -> [OutboxEvent]? {
            guard try await fill(), let newest = pending.last else { return nil }
            defer { pending = [] }
            last = newest.cursor
            return Array(pending)
        }

        /// Waits until events are in hand; false once the feed is closed.
        private mutating func fill() async throws -> Bool {
            while pending.isEmpty {
                try Task.checkCancellation()
                if feed.tail.isClosed { return false }
                pending = try await fetch()[...]
                if pending.isEmpty { try await feed.tail.wait(after: last) }
            }
            return true
        }

        /// The next events: from the tail when it holds them, else from the table; empty when caught up.
        private func fetch() async throws -> [OutboxEvent] {
            if let recent = feed.tail.events(after: last, limit: feed.pageSize) { return recent }
            let page = try await feed.page(after: last)
            // Cursors have no gaps except where old events were pruned (a prefix); from 0 a stream takes
            // whatever is kept.
            if last > 0, let first = page.first, first.cursor != last + 1 {
                throw EventsPruned(afterCursor: last, oldestRetained: first.cursor)
            }
            return page
        }
    }
}

extension EventFeed {
    /// A page of stored events after `cursor`; waits out an unreachable PostgreSQL with backoff. Empty once
    /// the feed is closed.
    func page(after cursor: Int64) async throws -> [OutboxEvent] {
        var backoff = Backoff.events
        while !tail.isClosed {
            do {
                return try await outbox.events(after: cursor, limit: pageSize, opening: cipher, pool)
            } catch let error as PostgresError where error.kind == .connectionFailure {
                try await Task.sleep(for: backoff.next())
            } catch let error as PostgresError where error.kind == .cancelled {
                throw CancellationError()
            }
        }
        return []
    }
}
