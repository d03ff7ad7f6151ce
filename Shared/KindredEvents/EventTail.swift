internal import Synchronization

/// The newest events of one outbox, in memory, and the streams of this process waiting for more. It holds
/// every event with a cursor in `(start, newest]`, so a caught-up stream reads here: one query per
/// sequencer batch serves every stream, not one per stream.
final class EventTail: Sendable {
    private struct State {
        var start: Int64 = 0
        /// Nil until the first refresh: until then every stream reads the table.
        var newest: Int64?
        var events: [OutboxEvent] = []
        var waiters: [UInt64: (after: Int64, continuation: CheckedContinuation<Void, any Error>)] = [:]
        var nextWaiter: UInt64 = 0
        var isClosed = false
    }

    /// Events held at most; a stream further behind reads the table.
    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The newest cursor known, nil before the first refresh.
    var newest: Int64? { state.withLock { $0.newest } }

    /// True once the feed closed: streams end.
    var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Up to `limit` events after `cursor` when the tail holds all of them (empty when the stream is caught
    /// up); nil when it does not, and the stream must read the table.
    func events(after cursor: Int64, limit: Int) -> [OutboxEvent]? {
        state.withLock { state in
            guard let newest = state.newest, cursor >= state.start else { return nil }
            guard cursor < newest else { return [] }
            var low = 0
            var high = state.events.count
            while low < high {
                let middle = (low + high) / 2
                if state.events[middle].cursor <= cursor { low = middle + 1 } else { high = middle }
            }
            return Array(state.events[low..<min(low + limit, state.events.count)])
        }
    }

    /// Returns once an event after `cursor` is known, or the tail closed; throws `CancellationError` when the
    /// waiting task is cancelled.
    func wait(after cursor: Int64) async throws {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let outcome = state.withLock { state -> Result<Bool, CancellationError> in
                    if state.isClosed || state.newest ?? .min > cursor { return .success(true) }
                    // Checked under the lock: a cancellation handler that already ran found no waiter to resume.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[id] = (cursor, continuation)
                    return .success(false)
                }
                switch outcome {
                case .success(true): continuation.resume()
                case .success(false): break
                case .failure(let error): continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Adds events fetched after the `newest` they were read after, in cursor order, drops the oldest beyond
    /// `capacity`, and wakes the streams they concern. Those the sequencer added meanwhile are skipped.
    func append(_ fetched: [OutboxEvent]) {
        resumeWaiters { state in
            let newest = state.newest ?? .min
            add(fetched.drop { $0.cursor <= newest }, to: &state)
        }
    }

    /// Adds the events this process's sequencer just numbered when they follow `newest` right away; otherwise
    /// (another instance's events in between, a refresh already past them, no refresh yet) leaves them to the
    /// refresh their notification starts. Returns whether it added them.
    @discardableResult
    func extend(with numbered: [OutboxEvent]) -> Bool {
        var added = false
        resumeWaiters { state in
            guard let newest = state.newest, numbered.first?.cursor == newest + 1 else { return }
            add(numbered[...], to: &state)
            added = true
        }
        return added
    }

    private func add(_ events: ArraySlice<OutboxEvent>, to state: inout State) {
        guard let last = events.last?.cursor else { return }
        state.events += events
        let excess = state.events.count - capacity
        if excess > 0 {
            state.start = state.events[excess - 1].cursor
            state.events.removeFirst(excess)
        }
        state.newest = last
    }

    /// Forgets the held events and starts again at `newest`: the first refresh, or one too far behind.
    func restart(at newest: Int64) {
        resumeWaiters { state in
            state.events.removeAll()
            state.start = newest
            state.newest = newest
        }
    }

    /// Ends every stream's wait; later waits return at once.
    func close() {
        resumeWaiters { $0.isClosed = true }
    }

    /// Applies `change`, then resumes the waiters that now have news (all of them once closed).
    private func resumeWaiters(after change: (inout State) -> Void) {
        let ready = state.withLock { state in
            change(&state)
            let newest = state.newest ?? .min
            let ready = state.waiters.filter { state.isClosed || $0.value.after < newest }
            for id in ready.keys { state.waiters.removeValue(forKey: id) }
            return ready.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }
}
