internal import Synchronization

/// The events a consumer's stream delivered that the consumer has not handled yet, at most `capacity`: a
/// reader task fills it from the stream while the consumer commits, and the consumer takes everything
/// waiting at once. Under load a batch is what arrived during the previous commit; an idle consumer takes
/// the one event that just came, with no added wait. When full, the reader stops reading the stream, so a
/// consumer far behind holds at most `capacity` events, and the source's stream keeps its backpressure.
///
/// A continuation is resumed only after the lock is released: the consumer's cancellation handler takes the
/// lock while the Swift runtime holds the consumer task's status lock, which resuming that task's continuation
/// also takes, so resuming under the lock could deadlock the two (it did, at a drain).
final class EventReadAhead<Element: Sendable>: Sendable {
    private typealias Waiter = CheckedContinuation<Void, Never>

    private struct State {
        var waiting: [Element] = []
        /// Set once: the stream ended (`success`) or threw, or the consumer stopped (`CancellationError`).
        var end: Result<Void, any Error>?
        var taker: Waiter?
        var reader: Waiter?
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
                let (taken, reader) = state.withLock { state -> (Result<[Element], any Error>?, Waiter?) in
                    if !state.waiting.isEmpty {
                        let batch = Array(state.waiting.prefix(limit))
                        state.waiting.removeFirst(batch.count)
                        return (.success(batch), state.reader.take())
                    }
                    return (state.end.map { end in end.map { [] } }, nil)
                }
                reader?.resume()
                if let taken { return try taken.get().isEmpty ? nil : taken.get() }
                await withCheckedContinuation { continuation in
                    let parked = state.withLock { state in
                        guard state.waiting.isEmpty && state.end == nil else { return false }
                        state.taker = continuation
                        return true
                    }
                    if !parked { continuation.resume() }
                }
            }
        } onCancel: {
            finish(.failure(CancellationError()))
        }
    }

    /// Ends the buffer: the reader stops at its next event and a waiting consumer wakes.
    func finish(_ end: Result<Void, any Error>) {
        let woken = state.withLock { state in
            if state.end == nil { state.end = end }
            return [state.taker.take(), state.reader.take()]
        }
        woken.forEach { $0?.resume() }
    }

    /// Appends `event`, waiting while the buffer is full; false once the buffer was finished.
    private func put(_ event: Element) async -> Bool {
        while true {
            let (stored, taker) = state.withLock { state -> (Bool?, Waiter?) in
                guard state.end == nil else { return (false, nil) }
                guard state.waiting.count < capacity else { return (nil, nil) }
                state.waiting.append(event)
                return (true, state.taker.take())
            }
            taker?.resume()
            if let stored { return stored }
            await withCheckedContinuation { continuation in
                let parked = state.withLock { state in
                    guard state.waiting.count >= capacity && state.end == nil else { return false }
                    state.reader = continuation
                    return true
                }
                if !parked { continuation.resume() }
            }
        }
    }
}
