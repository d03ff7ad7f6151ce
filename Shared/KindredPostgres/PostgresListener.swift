public import Logging
internal import KindredThreads
internal import Synchronization

/// What a `PostgresListener` delivers.
public enum PostgresNotification: Sendable, Equatable {
    /// `NOTIFY channel, 'payload'` (or `pg_notify`) from any session, after its transaction committed.
    case notification(channel: String, payload: String)
    /// The listening connection is (again) established. Notifications sent while it was down are lost:
    /// re-read whatever they announce (an outbox, from the stored cursor).
    case listening
}

/// LISTENs on a few channels over a connection of its own, owned by a dedicated thread; reconnects with
/// backoff and says so with `.listening`. For waking outbox streams: notifications carry hints, not data.
public final class PostgresListener: Sendable {
    /// The notifications, in order; one consumer. Finishes when the listener is closed.
    public let notifications: AsyncStream<PostgresNotification>
    private let continuation: AsyncStream<PostgresNotification>.Continuation
    private let configuration: PostgresConfiguration
    private let channels: [String]
    private let logger: Logger
    private let worker = PostgresWorker(index: 0)
    private let isClosed = Atomic(false)
    private let exited = Mutex<CheckedContinuation<Void, Never>?>(nil)
    private let hasExited = Atomic(false)

    /// Starts listening on `channels` (lowercase identifiers: letters, digits, underscores).
    public init(configuration: PostgresConfiguration, channels: [String], logger: Logger)
        throws(PostgresError)
    {
        for channel in channels where !channel.isPlainIdentifier {
            throw PostgresError(
                kind: .invalidBind, message: "channel \"\(channel)\" is not a plain identifier")
        }
        (notifications, continuation) = AsyncStream.makeStream(of: PostgresNotification.self)
        self.configuration = configuration
        self.channels = channels
        self.logger = logger
        PostgresWorker.startThread { [self] in self.run() }
    }

    /// Stops listening and disconnects; returns when the thread has exited.
    public func close() async {
        isClosed.store(true, ordering: .sequentiallyConsistent)
        worker.wake()
        await withCheckedContinuation { waiter in
            let done = exited.withLock { slot in
                if hasExited.load(ordering: .sequentiallyConsistent) { return true }
                slot = waiter
                return false
            }
            if done { waiter.resume() }
        }
    }

    private var closed: Bool { isClosed.load(ordering: .sequentiallyConsistent) }

    private func run() {
        var backoff = Backoff.reconnect
        while !closed {
            do {
                let connection = try PostgresConnection(configuration: configuration)
                try connection.runScript(channels.map { "LISTEN \"\($0)\";" }.joined())
                backoff.reset()
                continuation.yield(.listening)
                listen(on: connection)
                if !closed { logger.warning("PostgreSQL listener lost its connection; reconnecting") }
            } catch {
                logger.warning("PostgreSQL listener could not connect", metadata: ["error": "\(error)"])
                _ = worker.wait(socket: nil, timeout: backoff.next())
            }
        }
        continuation.finish()
        let waiter = exited.withLock { slot in
            hasExited.store(true, ordering: .sequentiallyConsistent)
            defer { slot = nil }
            return slot
        }
        waiter?.resume()
    }

    /// Delivers notifications until the connection breaks or the listener closes.
    private func listen(on connection: PostgresConnection) {
        while !closed {
            guard worker.wait(socket: connection.socket, timeout: nil) else { continue }
            guard let received = connection.receiveNotifications() else { return }
            for (channel, payload) in received {
                continuation.yield(.notification(channel: channel, payload: payload))
            }
        }
    }
}

extension String {
    var isPlainIdentifier: Bool {
        guard let first = utf8.first, !(48...57).contains(first), utf8.count <= 63 else { return false }
        return utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }
    }
}
