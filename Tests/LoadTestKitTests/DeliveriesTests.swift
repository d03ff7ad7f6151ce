import LoadTestKit
import Testing

@Suite struct DeliveriesTests {
    let start = ContinuousClock.now

    @Test func aDeliveryIsTimedFromTheSendAndCountedOnce() {
        let deliveries = Deliveries()
        deliveries.sending("a", at: start)
        deliveries.sent("a", succeeded: true, recipientSettled: true)
        deliveries.arrived(text: Deliveries.text(for: "a"), at: start + .milliseconds(40))
        deliveries.arrived(text: Deliveries.text(for: "a"), at: start + .milliseconds(900))
        let tally = deliveries.finish()
        #expect(tally.delays.count == 1)
        #expect(tally.delays.maxMicroseconds == 40_000)
        #expect(tally.missed == 0)
    }

    // The stream can hand the message over before the SendMessage answer is back.
    @Test func anArrivalBeforeTheSendsAnswerIsNotMissed() {
        let deliveries = Deliveries()
        deliveries.sending("early", at: start)
        deliveries.arrived(text: Deliveries.text(for: "early"), at: start + .milliseconds(3))
        deliveries.sent("early", succeeded: true, recipientSettled: true)
        let tally = deliveries.finish()
        #expect(tally.delays.count == 1)
        #expect(tally.missed == 0)
    }

    @Test func aSuccessfulSendToASettledStreamThatNeverArrivesIsMissed() {
        let deliveries = Deliveries()
        deliveries.sending("lost", at: start)
        deliveries.sent("lost", succeeded: true, recipientSettled: true)
        #expect(deliveries.finish().missed == 1)
    }

    @Test func aFailedSendOrAnUnsettledRecipientExpectsNothing() {
        let deliveries = Deliveries()
        deliveries.sending("failed", at: start)
        deliveries.sent("failed", succeeded: false, recipientSettled: true)
        deliveries.sending("unsettled", at: start)
        deliveries.sent("unsettled", succeeded: true, recipientSettled: false)
        let tally = deliveries.finish()
        #expect(tally.missed == 0)
        #expect(tally.delays.count == 0)
    }

    @Test func messagesTheRunDidNotSendAreIgnored() {
        let deliveries = Deliveries()
        deliveries.arrived(text: "See you at ten?", at: start)
        deliveries.arrived(text: Deliveries.text(for: "someone else's"), at: start)
        #expect(deliveries.finish().delays.count == 0)
    }
}
