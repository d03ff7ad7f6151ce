import Foundation
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import GamificationService
@testable import ServiceTestSupport
import Testing

/// Family's events as the activity counters apply them, each in a transaction of its own as the consumer's
/// batch would: counted once per activity, taken back by an undo, an unsquish or an RSVP away from attending.
@Suite struct ActivityCounterTests {
    @Test func aReplayedEventChangesNoCounterEvenAfterItsUndo() async throws {
        try await GamificationTestStack.with { stack in
            let ben = try await stack.register("ben")
            let bought = familyEvent(Payload.registryPurchased, by: ben, subject: "item-1")
            try await stack.applyCounters(bought)
            try await stack.applyCounters(bought)
            #expect(try await stack.counters(of: ben).itemsPurchased == 1)
            try await stack.applyCounters(
                familyEvent(Payload.registryPurchaseUndone, by: ben, subject: "item-1"))
            try await stack.applyCounters(bought)
            #expect(try await stack.counters(of: ben).itemsPurchased == 0)
        }
    }

    @Test func aPurchaseAnOwnerUndoesTakesTheBuyersCountBack() async throws {
        try await GamificationTestStack.with { stack in
            let (anna, ben) = (try await stack.register("anna"), try await stack.register("ben"))
            try await stack.applyCounters(familyEvent(Payload.registryPurchased, by: ben, subject: "item-1"))
            try await stack.applyCounters(familyEvent(Payload.registryPurchased, by: ben, subject: "item-2"))
            try await stack.applyCounters(
                familyEvent(Payload.registryPurchaseUndone, by: anna, subject: "item-1"))
            #expect(try await stack.counters(of: ben).itemsPurchased == 1)
            #expect(try await stack.counters(of: anna).itemsPurchased == 0)
        }
    }

    @Test func anRsvpChangedAwayFromAttendingTakesTheEventBack() async throws {
        try await GamificationTestStack.with { stack in
            let ben = try await stack.register("ben")
            let away = familyEvent(Payload.calendarRsvpChanged, by: ben, subject: "party", answer: .maybe)
            try await stack.applyCounters(
                familyEvent(Payload.calendarRsvpChanged, by: ben, subject: "party", answer: .attending))
            try await stack.applyCounters(
                familyEvent(Payload.calendarRsvpChanged, by: ben, subject: "shower", answer: .attending))
            try await stack.applyCounters(away)
            #expect(try await stack.counters(of: ben).eventsAttended == 1)
            try await stack.applyCounters(
                familyEvent(Payload.calendarRsvpChanged, by: ben, subject: "party", answer: .attending))
            try await stack.applyCounters(away)
            #expect(try await stack.counters(of: ben).eventsAttended == 2)
        }
    }

    @Test func squishesCountUntilUnsquishedAndCommentsCountEach() async throws {
        try await GamificationTestStack.with { stack in
            let (anna, ben) = (try await stack.register("anna"), try await stack.register("ben"))
            for photo in ["p1", "p2"] {
                try await stack.applyCounters(familyEvent(Payload.photoSquished, by: ben, subject: photo))
            }
            try await stack.applyCounters(familyEvent(Payload.photoSquished, by: anna, subject: "p1"))
            try await stack.applyCounters(familyEvent(Payload.photoUnsquished, by: ben, subject: "p1"))
            for comment in ["c1", "c2", "c3"] {
                try await stack.applyCounters(familyEvent(Payload.commentAdded, by: ben, subject: comment))
            }
            let bens = try await stack.counters(of: ben)
            #expect(bens.photosSquished == 1 && bens.commentsAdded == 3)
            #expect(try await stack.counters(of: anna).photosSquished == 1)
        }
    }

    @Test func onlyTheUserReadsTheirCountersAndAStrangerIsRefusedAlikeForAnyId() async throws {
        try await GamificationTestStack.with { stack in
            let (anna, ben) = (try await stack.register("anna"), try await stack.register("ben"))
            try await stack.applyCounters(familyEvent(Payload.commentAdded, by: ben, subject: "c1"))
            let own = try await stack.gamification.getActivityCounters(
                .init(userID: ben.id), options: ben.bearer)
            #expect(own.counters?.userID == ben.id && own.counters?.commentsAdded == 1)
            for other in [ben.id, UserID.generate(at: Date()).description] {
                let refused = await rpcError {
                    try await stack.gamification.getActivityCounters(
                        .init(userID: other), options: anna.bearer)
                }
                #expect(refused?.code == .permissionDenied)
                #expect(refused?.reason == "ACTIVITY_COUNTERS_PRIVATE")
            }
            let malformed = await rpcError {
                try await stack.gamification.getActivityCounters(
                    .init(userID: "nobody"), options: anna.bearer)
            }
            #expect(malformed?.code == .invalidArgument)
        }
    }
}
