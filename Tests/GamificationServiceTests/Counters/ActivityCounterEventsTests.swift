import KindredAPI
import KindredEvents
import KindredMessages
import KindredRuntime
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

/// Family's events through its `WatchEvents` into the counters, as the running service consumes them: events
/// are written straight to family's outbox, a replay as a second row holding the same activity.
@Suite struct ActivityCounterEventsTests {
    @Test func familysStreamKeepsTheCountersOncePerActivityThroughTheConsumer() async throws {
        try await GamificationTestStack.with { stack in
            let ben = try await stack.register("ben")
            let attending = familyEvent(
                Payload.calendarRsvpChanged, by: ben, subject: "party", answer: .attending)
            let events = [
                attending, familyEvent(Payload.registryPurchased, by: ben, subject: "item-1"), attending,
                familyEvent(Payload.calendarRsvpChanged, by: ben, subject: "party", answer: .notAttending),
                attending, familyEvent(Payload.commentAdded, by: ben, subject: "c1"),
            ]
            let outbox = EventOutbox(schema: "family")
            try await stack.pool.transaction { tx in
                for event in events {
                    try await outbox.append(
                        type: "baby.activity", payload: try event.serializedBytes(),
                        sealedWith: TestDataKeys.cipher, in: tx)
                }
            }
            let credentials = try ServiceCredentials(
                clientID: "gamification", clientSecret: FamilyTestStack.gamificationSecret,
                identityTarget: stack.social.base.identityTarget)
            let consumer = FamilyEventsConsumer.consumer(
                family: stack.social.base.family, credentials: credentials, context: stack.context)
            let consuming = Task { await consumer.run() }
            defer { consuming.cancel() }
            try await eventually("the consumer reached family's last event") {
                try await stack.pool.query(
                    "SELECT cursor FROM gamification.event_cursors WHERE source = 'family'"
                ).decode(Int64.self).first == Int64(events.count)
            }
            let counters = try await stack.counters(of: ben)
            // The replayed "attending" after "not attending" changes nothing: the event is not attended.
            #expect(counters.eventsAttended == 0)
            #expect(counters.itemsPurchased == 1 && counters.commentsAdded == 1)
            consuming.cancel()
            await consuming.value
        }
    }
}
