import KindredAPI
import KindredEvents
import KindredHandlers
import KindredMessages
import KindredMetrics
import KindredRPC
import KindredRuntime

/// One of identity's events as family consumes it, with what its handler needs from identity fetched before
/// the handler's transaction opens: the account of a user who came of age (nil once it is deleted).
struct ReceivedIdentityEvent: SequencedEvent {
    let event: Kindred_Identity_V1_Event
    var account: Kindred_Identity_V1_Account? = nil

    var cursor: Int64 { event.cursor }
    var traceparent: String { event.traceparent }
}

/// Identity's `WatchEvents` after a cursor (see `ServiceCallStream`), each event with what its handler needs
/// from identity asked as it is read.
struct IdentityEventStream: AsyncSequence, Sendable {
    typealias Element = ReceivedIdentityEvent

    let identity: IdentityDirectory
    let after: Int64

    func makeAsyncIterator() -> AsyncIterator {
        let (identity, after) = (identity, after)
        let events = ServiceCallStream(credentials: identity.credentials) { options in
            identity.client.watchEvents(.init(afterCursor: after), options: options)
        }
        return AsyncIterator(identity: identity, events: events.makeAsyncIterator())
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let identity: IdentityDirectory
        var events: ServiceCallStream<Kindred_Identity_V1_Event>.AsyncIterator

        /// The next event; nil when the call ends, its lifetime included.
        mutating func next() async throws -> ReceivedIdentityEvent? {
            guard let event = try await events.next() else { return nil }
            guard case .userCameOfAge(let cameOfAge) = event.payload, let user = UserID(cameOfAge.userID)
            else {
                return ReceivedIdentityEvent(event: event)
            }
            // Asked in the event's trace, as the handler will be.
            let account = try await TraceContext.$current.withValue(.continuing(event.traceparent)) {
                try await identity.knownAccount(user)
            }
            return ReceivedIdentityEvent(event: event, account: account)
        }
    }
}
