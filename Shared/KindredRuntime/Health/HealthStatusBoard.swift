import Synchronization

/// The serving status of every service name a process answers for, and the streams watching them.
/// The empty name is the whole process, as in `grpc.health.v1`.
public final class HealthStatusBoard: Sendable {
    /// A service's status, as `grpc.health.v1` reports it.
    public enum Status: Sendable, Equatable {
        case serving
        case notServing
    }

    private struct State {
        var statuses: [String: Status] = [:]
        var watchers: [String: [UInt64: AsyncStream<Status?>.Continuation]] = [:]
        var nextWatcherID: UInt64 = 0
        var isDraining = false
    }

    private let state = Mutex(State())
    /// Held while watchers are told a change, so each sees the changes in the order they were made. They are told
    /// outside `state`: a yield resumes a waiting watcher, which needs its task's status lock, and a watcher being
    /// cancelled holds that lock while its stream's onTermination waits for `state`. Nothing under a
    /// cancellation takes this one.
    private let telling = Mutex(())

    public init() {}

    /// The status of `service`, or nil when this process does not serve it.
    public func status(of service: String) -> Status? {
        state.withLock { $0.statuses[service] }
    }

    /// Sets one service's status and tells its watchers when it changed.
    public func set(_ status: Status, for service: String) {
        telling.withLock { _ in
            let watching = state.withLock { state -> [AsyncStream<Status?>.Continuation] in
                guard !state.isDraining, state.statuses[service] != status else { return [] }
                state.statuses[service] = status
                return Array(state.watchers[service, default: [:]].values)
            }
            watching.forEach { $0.yield(status) }
        }
    }

    /// Reports every service NOT_SERVING for good and ends every watch after that last status, so that
    /// load balancers stop sending calls and streaming health calls do not hold the drain open.
    public func beginDrain() {
        telling.withLock { _ in
            let (changed, watching) = state.withLock { state in
                var changed: [AsyncStream<Status?>.Continuation] = []
                for (service, status) in state.statuses where status != .notServing {
                    state.statuses[service] = .notServing
                    changed += state.watchers[service, default: [:]].values
                }
                state.isDraining = true
                defer { state.watchers.removeAll() }
                return (changed, state.watchers.values.flatMap(\.values))
            }
            changed.forEach { $0.yield(.notServing) }
            // Outside `state` too: finishing runs each stream's onTermination, which takes it.
            watching.forEach { $0.finish() }
        }
    }

    /// The current status of `service` (nil while unknown), then every change, until the stream is dropped.
    public func watch(_ service: String) -> AsyncStream<Status?> {
        // Statuses change rarely; a watcher that falls behind only needs the latest one.
        let (stream, continuation) = AsyncStream.makeStream(
            of: Status?.self, bufferingPolicy: .bufferingNewest(1))
        let id: UInt64? = state.withLock { state in
            // Under the lock, so it comes before any change told to this watcher; the stream is new, so this
            // yield resumes nobody.
            continuation.yield(state.statuses[service])
            guard !state.isDraining else { return nil }
            let id = state.nextWatcherID
            state.nextWatcherID += 1
            state.watchers[service, default: [:]][id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { state in _ = state.watchers[service]?.removeValue(forKey: id) }
        }
        return stream
    }
}
