internal import KindredThreads
internal import Logging
internal import Synchronization

/// The one listening connection a process keeps per database and role, shared by every `PostgresListener` of it
/// (event feeds, recipient bells, mail workers), on a thread of its own that reconnects with backoff.
///
/// Why one: PostgreSQL 15 does not know which backend listens on which channel, so each NOTIFY signals every
/// listening backend of the database, and each wakes to read the queue. With a listener per component a service
/// kept 2–4 listening backends, eleven across the stack: each announcement woke eleven processes, ten of them for
/// nothing (about 7% of PostgreSQL's CPU at 1,000 calls/s, in `kill`, the signal handlers and the wake-ups).
final class PostgresListenerHub: Sendable {
    private struct Subscriber {
        let channels: Set<String>
        let continuation: AsyncStream<PostgresNotification>.Continuation
        /// Whether it was told `.listening` on the current connection: it hears nothing before.
        var told = false
    }

    private struct State {
        var subscribers: [UInt64: Subscriber] = [:]
        var nextID: UInt64 = 0
        /// The channels LISTENed on the current connection.
        var listened: Set<String> = []
        /// Whether a subscriber may not have been told `.listening` on the current connection yet: set by
        /// `subscribe` and by a new connection, so a wake-up for notifications alone skips the welcome.
        var hasNewcomers = false
        var closed = false
        var exitWaiter: CheckedContinuation<Void, Never>?
        var exited = false
    }

    /// The hubs of this process, by the connection parameters they were made for.
    private static let hubs = Mutex<[[PostgresConfiguration.Parameter]: PostgresListenerHub]>([:])

    private let configuration: PostgresConfiguration
    private let logger: Logger
    private let worker = PostgresWorker(index: 0)
    private let state = Mutex(State())

    private init(configuration: PostgresConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        PostgresWorker.startThread(name: "pg-listener") { [self] in run() }
    }

    /// Delivers the notifications of `channels` to `continuation`, after a `.listening` once they are listened to,
    /// through the hub of `configuration`'s database (made now if the process has none); returns the hub and the
    /// subscription's id, for `unsubscribe`.
    static func subscribe(
        _ channels: Set<String>, _ continuation: AsyncStream<PostgresNotification>.Continuation,
        configuration: PostgresConfiguration, logger: Logger
    ) -> (PostgresListenerHub, UInt64) {
        hubs.withLock { hubs in
            let hub =
                hubs[configuration.parameters]
                ?? PostgresListenerHub(configuration: configuration, logger: logger)
            hubs[configuration.parameters] = hub
            let id = hub.state.withLock { state in
                state.nextID += 1
                state.subscribers[state.nextID] = Subscriber(channels: channels, continuation: continuation)
                state.hasNewcomers = true
                return state.nextID
            }
            hub.worker.wake()
            return (hub, id)
        }
    }

    /// Ends subscription `id`'s stream; the last one closes the hub and returns once its thread has exited.
    func unsubscribe(_ id: UInt64) async {
        let last = Self.hubs.withLock { hubs in
            state.withLock { state in
                state.subscribers.removeValue(forKey: id)?.continuation.finish()
                guard state.subscribers.isEmpty else { return false }
                state.closed = true
                if hubs[configuration.parameters] === self { hubs[configuration.parameters] = nil }
                return true
            }
        }
        guard last else { return }
        worker.wake()
        await withCheckedContinuation { waiter in
            let exited = state.withLock { state in
                if !state.exited { state.exitWaiter = waiter }
                return state.exited
            }
            if exited { waiter.resume() }
        }
    }

    private var closed: Bool { state.withLock { $0.closed } }

    private func run() {
        var backoff = Backoff.reconnect
        while !closed {
            do {
                let connection = try PostgresConnection(configuration: configuration)
                backoff.reset()
                listen(on: connection)
                if !closed { logger.warning("PostgreSQL listener lost its connection; reconnecting") }
            } catch {
                logger.warning("PostgreSQL listener could not connect", metadata: ["error": "\(error)"])
                _ = worker.wait(socket: nil, timeout: backoff.next())
            }
        }
        let waiter = state.withLock { state in
            state.exited = true
            defer { state.exitWaiter = nil }
            return state.exitWaiter
        }
        waiter?.resume()
    }

    /// Listens to what the subscribers ask and delivers it, until the connection breaks or the hub closes.
    private func listen(on connection: PostgresConnection) {
        state.withLock { state in
            state.listened = []
            state.hasNewcomers = true
            for id in state.subscribers.keys { state.subscribers[id]?.told = false }
        }
        while !closed {
            do {
                try welcomeNewcomers(on: connection)
            } catch {
                return
            }
            guard worker.wait(socket: connection.socket, timeout: nil) else { continue }
            guard let received = connection.receiveNotifications() else { return }
            deliver(received)
        }
    }

    /// LISTENs to the channels subscribers want and the connection does not listen to yet, then tells each
    /// subscriber not yet told that it is listening. What arrived meanwhile is delivered.
    private func welcomeNewcomers(on connection: PostgresConnection) throws(PostgresError) {
        // Without newcomers the union of every subscriber's channels was rebuilt on each notification (perf).
        let wanted: Set<String>? = state.withLock { state in
            guard state.hasNewcomers else { return nil }
            state.hasNewcomers = false
            return state.subscribers.values.reduce(into: Set<String>()) { $0.formUnion($1.channels) }
                .subtracting(state.listened)
        }
        guard let wanted else { return }
        if !wanted.isEmpty {
            try connection.runScript(wanted.sorted().map { "LISTEN \"\($0)\";" }.joined())
            // Notifications read with the LISTEN's answer wait in libpq, not in the socket.
            guard let received = connection.receiveNotifications() else { throw .connectionLost("listener") }
            deliver(received)
        }
        state.withLock { state in
            state.listened.formUnion(wanted)
            for (id, subscriber) in state.subscribers where !subscriber.told {
                state.subscribers[id]?.told = subscriber.channels.isSubset(of: state.listened)
                if state.subscribers[id]?.told == true { subscriber.continuation.yield(.listening) }
            }
        }
    }

    /// Hands each subscriber what one read brought on its channels, a delivery per run of one channel.
    private func deliver(_ received: [(channel: String, payload: String)]) {
        guard !received.isEmpty else { return }
        state.withLock { state in
            for (channel, payloads) in Self.runs(received) {
                for subscriber in state.subscribers.values
                where subscriber.told && subscriber.channels.contains(channel) {
                    subscriber.continuation.yield(.notifications(channel: channel, payloads: payloads))
                }
            }
        }
    }

    /// Notifications in a row on one channel, in the order sent.
    typealias Run = (channel: String, payloads: [String])

    /// `received` cut where the channel changes: each run's payloads in order, the runs in order.
    static func runs(_ received: [(channel: String, payload: String)]) -> [Run] {
        var runs: [Run] = []
        for (channel, payload) in received {
            if runs.last?.channel == channel {
                runs[runs.count - 1].payloads.append(payload)
            } else {
                runs.append((channel, [payload]))
            }
        }
        return runs
    }
}
