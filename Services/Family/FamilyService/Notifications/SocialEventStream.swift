import KindredAPI
import KindredEvents
import KindredMessages
import KindredMetrics
import KindredRPC
import KindredRuntime

/// Social's `WatchEvents` after a cursor, each event addressed for its guardian alerts as it is read (one
/// event is read ahead at most): what family's `EventConsumer` of `"social"` reads.
struct SocialEventStream: AsyncSequence, Sendable {
    typealias Element = AddressedAlert

    let events: ServiceCallStream<Kindred_Social_V1_Event>
    let alerts: GuardianAlerts

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(events: events.makeAsyncIterator(), alerts: alerts)
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var events: ServiceCallStream<Kindred_Social_V1_Event>.AsyncIterator
        let alerts: GuardianAlerts

        mutating func next() async throws -> AddressedAlert? {
            guard let event = try await events.next() else { return nil }
            // Addressed in the event's trace, as the handler will be: identity's lines carry it too.
            return try await TraceContext.$current.withValue(.continuing(event.traceparent)) {
                try await alerts.address(event)
            }
        }
    }
}

extension GuardianAlerts {
    /// Family's consumer of social's events at `socialTarget` (`host:port`), its cursor in
    /// `family.event_cursors` under `"social"`; run it until the drain.
    func consumer(socialTarget: String) throws(RPCError) -> EventConsumer<SocialEventStream> {
        let social = Kindred_Social_V1_SocialService.Client(try RPCClient(target: socialTarget))
        let credentials = identity.credentials
        return EventConsumer(
            source: "social", schema: "family", pool: database, logger: logger,
            fetch: { after in
                SocialEventStream(
                    events: ServiceCallStream(credentials: credentials) { options in
                        social.watchEvents(.init(afterCursor: after), options: options)
                    },
                    alerts: self)
            },
            handle: { addressed, tx in try await apply(addressed, in: tx) })
    }
}
