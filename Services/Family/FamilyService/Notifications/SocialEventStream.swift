import KindredAPI
import KindredEvents
import KindredMessages
import KindredRPC

/// Social's `WatchEvents` after a cursor, called with family's own service token, each event addressed for
/// its guardian alerts as it is read: what family's `EventConsumer` of `"social"` reads. The call starts with
/// the first `next()`, once the token is at hand; one event is read ahead at most. The call lasts an hour at
/// most (calls without a timeout get the client's default of seconds): its deadline ends the stream, which
/// the consumer then opens again from its cursor, with a fresh token.
struct SocialEventStream: AsyncSequence, Sendable {
    typealias Element = AddressedAlert
    static let callLifetime = Duration.seconds(3_600)

    let social: Kindred_Social_V1_SocialService.Client
    let alerts: GuardianAlerts
    let after: Int64

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(stream: self)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let stream: SocialEventStream
        var events: ClientResponseStream<Kindred_Social_V1_Event>.AsyncIterator?

        init(stream: SocialEventStream) {
            self.stream = stream
        }

        mutating func next() async throws -> AddressedAlert? {
            if events == nil {
                let options = try await stream.alerts.identity.credentials.callOptions(
                    timeout: SocialEventStream.callLifetime)
                events = stream.social.watchEvents(.init(afterCursor: stream.after), options: options)
                    .makeAsyncIterator()
            }
            let event: Kindred_Social_V1_Event?
            do {
                event = try await events?.next()
            } catch let error where error.code == .deadlineExceeded {
                return nil
            }
            guard let event else { return nil }
            return try await stream.alerts.address(event)
        }
    }
}

extension GuardianAlerts {
    /// Family's consumer of social's events at `socialTarget` (`host:port`), its cursor in
    /// `family.event_cursors` under `"social"`; run it until the drain.
    func consumer(socialTarget: String) throws(RPCError) -> EventConsumer<SocialEventStream> {
        let social = Kindred_Social_V1_SocialService.Client(try RPCClient(target: socialTarget))
        return EventConsumer(
            source: "social", schema: "family", pool: database, logger: logger,
            fetch: { after in SocialEventStream(social: social, alerts: self, after: after) },
            handle: { addressed, tx in try await apply(addressed, in: tx) })
    }
}
