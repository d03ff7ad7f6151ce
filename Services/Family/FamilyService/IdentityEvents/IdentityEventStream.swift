import KindredAPI
import KindredEvents
import KindredMessages
import KindredRPC

/// One of identity's events as family consumes it, with what its handler needs from identity fetched before
/// the handler's transaction opens: the account of a user who came of age (nil once it is deleted).
struct ReceivedIdentityEvent: SequencedEvent {
    let event: Kindred_Identity_V1_Event
    var account: Kindred_Identity_V1_Account? = nil

    var cursor: Int64 { event.cursor }
}

/// Identity's `WatchEvents` after a cursor, called with family's own service token. The call is reopened
/// by the consumer when it ends: at the latest after `lifetime`, so a renewed token is used from then on.
struct IdentityEventStream: AsyncSequence, Sendable {
    typealias Element = ReceivedIdentityEvent
    /// How long one call may stay open.
    static let lifetime: Duration = .seconds(3_600)

    let identity: IdentityDirectory
    let after: Int64

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(identity: identity, after: after)
    }

    /// Opens the call on the first `next()`.
    struct AsyncIterator: AsyncIteratorProtocol {
        let identity: IdentityDirectory
        let after: Int64
        var events: ClientResponseStream<Kindred_Identity_V1_Event>.AsyncIterator?

        /// The next event; nil when the call ends, its lifetime included.
        mutating func next() async throws -> ReceivedIdentityEvent? {
            if events == nil {
                let options = try await identity.credentials.callOptions(
                    timeout: IdentityEventStream.lifetime)
                events = identity.client.watchEvents(.init(afterCursor: after), options: options)
                    .makeAsyncIterator()
            }
            let event: Kindred_Identity_V1_Event
            do {
                guard let next = try await events?.next() else { return nil }
                event = next
            } catch let error where error.code == .deadlineExceeded {
                return nil
            }
            guard case .userCameOfAge(let cameOfAge) = event.payload else {
                return ReceivedIdentityEvent(event: event)
            }
            return ReceivedIdentityEvent(event: event, account: try await account(cameOfAge.userID))
        }

        private func account(_ userID: String) async throws -> Kindred_Identity_V1_Account? {
            do {
                return try await identity.account(userID)
            } catch let error where error.code == .notFound {
                return nil
            }
        }
    }
}
