internal import Synchronization

/// The events a consumer's stream delivered that the consumer has not handled yet, at most `capacity`: a
/// reader task fills it from the stream while the consumer commits, and the consumer takes everything
/// waiting at once. Under load a batch is what arrived during the previous commit; an idle consumer takes
/// the one event that just came, with no added wait. When full, the reader stops reading the stream, so a
/// consumer far behind holds at most `capacity` events, and the source's stream keeps its backpressure.
final class EventReadAhead<Element: Sendable>: Sendable {
    private struct State {
        var waiting: [Element] = []
        /// Set once: the stream ended (`success`) or threw, or the consumer stopped (`CancellationError`).
        var end: Result<Void, any Error>?
        var taker: CheckedContinuation<Void, Never>?
        var reader: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Reads `events` into the buffer until the stream ends or throws, or the consumer stops.
    func fill<Events: AsyncSequence>(from events: Events) async where Events.Element == Element {
        do {
            for try await event in events {
                guard await put(event) else { return }
            }
            finish(.success(()))
        } catch {
            finish(.failure(error))
        }
    }

    /// Up to `limit` waiting events, in stream order, waiting for one if none is; nil once the stream
    /// ended and everything was taken; throws the stream's error (after the events before it were taken).
    func take(upTo limit: Int) async throws -> [Element]? {
        try await withTaskCancellationHandler {
            while true {
                let taken = state.withLock { state -> Result<[Element], any Error>? in
                    if !state.waiting.isEmpty {
                        let batch = Array(state.waiting.prefix(limit))
                        state.waiting.removeFirst(batch.count)
                        state.reader.take()?.resume()
                        return .success(batch)
                    }
                    return state.end.map { end in end.map { [] } }
                }
                if let taken { return try taken.get().isEmpty ? nil : taken.get() }
                await withCheckedContinuation { continuation in
                    state.withLock { state in
                        if state.waiting.isEmpty && state.end == nil {
                            state.taker = continuation
                        } else {
                            continuation.resume()
                        }
                    }
                }
            }
        } onCancel: {
            finish(.failure(CancellationError()))
        }
    }

    /// Ends the buffer: the reader stops at its next event and a waiting consumer wakes.
    func finish(_ end: Result<Void, any Error>) {
        state.withLock { state in
            if state.end == nil { state.end = end }
            state.taker.take()?.resume()
            state.reader.take()?.resume()
        }
    }

    /// Appends `event`, waiting while the buffer is full; false once the buffer was finished.
    private func put(_ event: Element) async -> Bool {
        while true {
            let stored = state.withLock { state -> Bool? in
                guard state.end == nil else { return false }
                guard state.waiting.count < capacity else { return nil }
                state.waiting.append(event)
                state.taker.take()?.resume()
                return true
            }
            if let stored { return stored }
            await withCheckedContinuation { continuation in
                state.withLock { state in
                    if state.waiting.count >= capacity && state.end == nil {
                        state.reader = continuation
                    } else {
                        continuation.resume()
                    }
                }
            }
        }
    }
}
