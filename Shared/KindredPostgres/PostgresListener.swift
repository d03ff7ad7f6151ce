public import Logging

/// What a `PostgresListener` delivers.
public enum PostgresNotification: Sendable, Equatable {
    /// `NOTIFY channel, 'payload'` (or `pg_notify`) from any session, after its transaction committed: the
    /// payloads on `channel` that one read of the listening connection brought, in the order sent. A
    /// transaction's notifications arrive together, so a write that tells many is one delivery; another
    /// channel's notification between them starts a delivery of its own, so the order across channels holds.
    case notifications(channel: String, payloads: [String])
    /// The listening connection is (again) established. Notifications sent while it was down are lost:
    /// re-read whatever they announce (an outbox, from the stored cursor).
    case listening
}

/// LISTENs on a few channels and delivers what arrives on them, with `.listening` each time they are (again)
/// listened to. The process's listeners share one connection per database (`PostgresListenerHub`), owned by a
/// thread of its own that reconnects with backoff. For waking outbox streams: notifications carry hints, not data.
public final class PostgresListener: Sendable {
    /// The notifications, in order; one consumer. Finishes when the listener is closed.
    public let notifications: AsyncStream<PostgresNotification>
    private let hub: PostgresListenerHub
    private let subscription: UInt64

    /// Starts listening on `channels` (lowercase identifiers: letters, digits, underscores).
    public init(configuration: PostgresConfiguration, channels: [String], logger: Logger)
        throws(PostgresError)
    {
        for channel in channels where !channel.isPlainIdentifier {
            throw PostgresError(
                kind: .invalidBind, message: "channel \"\(channel)\" is not a plain identifier")
        }
        let (notifications, continuation) = AsyncStream.makeStream(of: PostgresNotification.self)
        self.notifications = notifications
        (hub, subscription) = PostgresListenerHub.subscribe(
            Set(channels), continuation, configuration: configuration, logger: logger)
    }

    /// Stops listening; returns when the stream has finished (and, for the process's last listener on its
    /// database, when the shared connection is closed and its thread has exited).
    public func close() async {
        await hub.unsubscribe(subscription)
    }
}

extension String {
    var isPlainIdentifier: Bool {
        guard let first = utf8.first, !(48...57).contains(first), utf8.count <= 63 else { return false }
        return utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }
    }
}
