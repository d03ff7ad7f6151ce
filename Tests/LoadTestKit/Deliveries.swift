import Synchronization

/// Real-time propagation: each message a virtual user sends names its key in its text; its delay runs from
/// the moment the SendMessage was sent to its arrival on the recipient's WatchMessages stream. A delivery is
/// expected once the send succeeded while the recipient's stream was settled (open for `settle`: a stream
/// opened without a cursor carries only what arrives after the server started it); what has not arrived
/// `grace` after the last send is missed.
public final class Deliveries: Sendable {
    struct Pending {
        let sentAt: ContinuousClock.Instant
        var expected = false
        var arrived = false
    }

    public static let settle: Duration = .seconds(2)
    /// How long streams stay open after the last send, for the deliveries still on their way.
    public static let grace: Duration = .seconds(5)
    private let state = Mutex<(pending: [String: Pending], tally: DeliveryTally)>(([:], DeliveryTally()))

    /// The text of a measured message with `key`.
    public static func text(for key: String) -> String { "loadtest \(key)" }

    public init() {}

    public func sending(_ key: String, at sentAt: ContinuousClock.Instant = .now) {
        state.withLock { $0.pending[key] = Pending(sentAt: sentAt) }
    }

    /// The send of `key` came back: a delivery is due when it succeeded to a settled stream.
    public func sent(_ key: String, succeeded: Bool, recipientSettled: Bool) {
        state.withLock { state in
            guard succeeded, recipientSettled else { return state.pending[key] = nil }
            if state.pending[key]?.arrived == true {
                state.pending[key] = nil
            } else {
                state.pending[key]?.expected = true
            }
        }
    }

    /// A stream received a message with `text`; others than measured ones are ignored.
    public func arrived(text: String, at now: ContinuousClock.Instant = .now) {
        guard text.hasPrefix("loadtest ") else { return }
        let key = String(text.dropFirst("loadtest ".count))
        state.withLock { state in
            guard let pending = state.pending[key], !pending.arrived else { return }
            state.tally.delays.record(now - pending.sentAt)
            if pending.expected { state.pending[key] = nil } else { state.pending[key]?.arrived = true }
        }
    }

    /// Stops expecting: what is still outstanding is missed.
    public func finish() -> DeliveryTally {
        state.withLock { state in
            var tally = state.tally
            tally.missed = state.pending.values.filter(\.expected).count
            return tally
        }
    }
}
