import LoadTestKit
import Testing

@Suite struct DeliveriesTests {
    let start = ContinuousClock.now

    @Test func aDeliveryIsTimedFromTheSendAndCountedOncePerRecipient() {
        let deliveries = Deliveries()
        deliveries.sending("a", at: start)
        deliveries.sent("a", succeeded: true, recipients: [7])
        deliveries.arrived(text: Deliveries.text(for: "a"), recipient: 7, at: start + .milliseconds(40))
        deliveries.arrived(text: Deliveries.text(for: "a"), recipient: 7, at: start + .milliseconds(900))
        let tally = deliveries.finish()
        #expect(tally.delays.count == 1)
        #expect(tally.delays.maxMicroseconds == 40_000)
        #expect(tally.missed == 0)
    }

    // The stream can hand the write over before its answer is back.
    @Test func anArrivalBeforeTheWritesAnswerIsNotMissed() {
        let deliveries = Deliveries()
        deliveries.sending("early", at: start)
        deliveries.arrived(text: Deliveries.text(for: "early"), recipient: 1, at: start + .milliseconds(3))
        deliveries.sent("early", succeeded: true, recipients: [1])
        let tally = deliveries.finish()
        #expect(tally.delays.count == 1)
        #expect(tally.missed == 0)
    }

    @Test func eachDueRecipientThatNeverReceivesIsMissed() {
        let deliveries = Deliveries()
        deliveries.sending("comment", at: start)
        deliveries.sent("comment", succeeded: true, recipients: [1, 2, 3])
        deliveries.arrived(text: Deliveries.text(for: "comment"), recipient: 2, at: start + .milliseconds(5))
        let tally = deliveries.finish()
        #expect(tally.missed == 2)
        #expect(tally.delays.count == 1)
    }

    // The writer's own stream carries its comment too, early or late: it is no delivery to anyone.
    @Test func anArrivalOnAStreamNotDueTheWriteIsNotCounted() {
        let deliveries = Deliveries()
        deliveries.sending("own", at: start)
        deliveries.arrived(text: Deliveries.text(for: "own"), recipient: 9, at: start + .milliseconds(1))
        deliveries.sent("own", succeeded: true, recipients: [4])
        deliveries.arrived(text: Deliveries.text(for: "own"), recipient: 4, at: start + .milliseconds(8))
        let tally = deliveries.finish()
        #expect(tally.delays.count == 1)
        #expect(tally.delays.maxMicroseconds == 8_000)
        #expect(tally.missed == 0)
    }

    // A drain can end a stream that got nothing yet between a write's answer and its arrival there: the stream
    // reopens without a cursor, so that write is no longer promised to it, while other recipients stay due.
    @Test func aStreamReopenedWithoutCursorIsNoLongerDueWhatItHadNotReceived() {
        let deliveries = Deliveries()
        deliveries.sending("handed", at: start)
        deliveries.sent("handed", succeeded: true, recipients: [1, 2])
        deliveries.sending("received", at: start)
        deliveries.sent("received", succeeded: true, recipients: [1])
        deliveries.arrived(text: Deliveries.text(for: "received"), recipient: 1, at: start + .milliseconds(2))
        deliveries.reopensWithoutCursor(recipient: 1)
        let tally = deliveries.finish()
        #expect(tally.missed == 1)
        #expect(tally.delays.count == 1)
    }

    @Test func aFailedWriteOrOneNobodyIsDueExpectsNothing() {
        let deliveries = Deliveries()
        deliveries.sending("failed", at: start)
        deliveries.sent("failed", succeeded: false, recipients: [1])
        deliveries.sending("unsettled", at: start)
        deliveries.sent("unsettled", succeeded: true, recipients: [])
        let tally = deliveries.finish()
        #expect(tally.missed == 0)
        #expect(tally.delays.count == 0)
    }

    @Test func theKeyIsFoundWhereverTheTextQuotesIt() {
        #expect(Deliveries.key(in: "Ann commented: " + Deliveries.text(for: "k1") + " more") == "k1")
        #expect(Deliveries.key(in: "New on the calendar: " + Deliveries.text(for: "k2")) == "k2")
        #expect(Deliveries.key(in: "See you at ten?") == nil)
    }

    @Test func theKeyEndsAtWhitespaceAsCharactersSeeIt() {
        #expect(Deliveries.key(in: Deliveries.text(for: "k3") + "\tnext line") == "k3")
        #expect(Deliveries.key(in: "Ünïcode first: " + Deliveries.text(for: "k4") + "\r\n") == "k4")
        #expect(Deliveries.key(in: Deliveries.text(for: "k5") + "\u{00A0}after a no-break space") == "k5")
        #expect(Deliveries.key(in: Deliveries.text(for: "k6") + "é!") == "k6é!")
        #expect(Deliveries.key(in: Deliveries.text(for: "")) == nil)
        #expect(Deliveries.key(in: "loadtest") == nil)
    }

    @Test func writesTheRunDidNotMakeAreIgnored() {
        let deliveries = Deliveries()
        deliveries.arrived(text: "See you at ten?", recipient: 1, at: start)
        deliveries.arrived(text: Deliveries.text(for: "someone else's"), recipient: 1, at: start)
        #expect(deliveries.finish().delays.count == 0)
    }
}
