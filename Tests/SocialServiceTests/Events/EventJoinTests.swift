import Foundation
@testable import ServiceTestSupport
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// `JoinEvent` and `LeaveEvent`, from the side of the minor who would join a stranger's event without asking.
@Suite struct EventJoinTests {
    @Test func aMinorJoiningAStrangersEventWaitsForTheGuardianThenTheSameJoinGoesThroughOnce() async throws {
        try await SocialTestStack.with { stack in
            let maya = try await stack.register("maya", age: 15)
            let gina = try await stack.guardian("gina", of: maya)
            let olga = try await stack.register("olga", age: 30)
            let fair = try await stack.createEvent("Street fair", by: olga)
            let join = {
                try await stack.social.joinEvent(.init(eventID: fair.eventID), options: maya.bearer)
            }

            let asked = try #require(await rpcError(join))
            #expect(asked.code == .failedPrecondition && asked.reason == "GUARDIAN_APPROVAL_REQUIRED")
            let approvalID = try #require(asked.metadata["approval_id"])
            #expect(await rpcError(join)?.metadata["approval_id"] == approvalID)
            let pending = try await stack.family.listApprovalRequests(
                .init(state: .pending), options: gina.bearer)
            #expect(pending.approvals.map(\.approvalID) == [approvalID])
            #expect(pending.approvals.first?.subjectID == fair.eventID)
            #expect(pending.approvals.first?.summary.hasPrefix("Join 'Street fair' on ") == true)
            #expect(try await stack.outboxEvents().isEmpty)

            try await stack.decide(approvalID, approve: true, by: gina)
            let joined = try #require(try await join().event)
            #expect(joined.joined && joined.attendeeCount == 1)
            #expect(try await join().event?.attendeeCount == 1)
            let told = try await stack.outboxEvents()
            #expect(told.map(\.type) == ["event.joined"])
            #expect(
                told.first?.payload
                    == .eventJoined(
                        .init(
                            minorUserID: maya.id, eventID: fair.eventID, title: "Street fair",
                            place: "The park",
                            startsAt: fair.startsAt, organizerUserID: olga.id)))

            _ = try await stack.social.leaveEvent(.init(eventID: fair.eventID), options: maya.bearer)
            _ = try await stack.social.leaveEvent(.init(eventID: fair.eventID), options: maya.bearer)
            #expect(try await stack.open(fair.eventID, as: olga).attendeeCount == 0)
        }
    }

    @Test func aGuardiansDenialStandsForThatEvent() async throws {
        try await SocialTestStack.with { stack in
            let maya = try await stack.register("maya", age: 15)
            let gina = try await stack.guardian("gina", of: maya)
            let olga = try await stack.register("olga", age: 30)
            let fair = try await stack.createEvent("Street fair", by: olga)
            let join = {
                try await stack.social.joinEvent(.init(eventID: fair.eventID), options: maya.bearer)
            }
            let approvalID = try #require(await rpcError(join)?.metadata["approval_id"])
            try await stack.decide(approvalID, approve: false, by: gina)
            for _ in 0..<2 {
                let denied = await rpcError(join)
                #expect(denied?.code == .permissionDenied && denied?.reason == "GUARDIAN_DENIED")
            }
            #expect(try await stack.outboxEvents().isEmpty)
        }
    }

    @Test func aMinorFollowingTheOrganizerOrUnrestrictedJoinsAtOnceAndAGuardianlessOneHearsNoGuardian()
        async throws
    {
        try await SocialTestStack.with { stack in
            let (maya, nico, tom) = (
                try await stack.register("maya", age: 15), try await stack.register("nico", age: 16),
                try await stack.register("tom", age: 14)
            )
            let olga = try await stack.register("olga", age: 30)
            let fair = try await stack.createEvent("Street fair", by: olga)
            try await stack.follow(maya, olga)
            try await stack.setControls(of: nico, eventJoinApprovalRequired: false)
            for minor in [maya, nico] {
                let joined = try await stack.social.joinEvent(
                    .init(eventID: fair.eventID), options: minor.bearer)
                #expect(joined.event?.joined == true)
            }
            #expect(try await stack.outboxEvents().map(\.type) == ["event.joined", "event.joined"])
            let alone = await rpcError {
                try await stack.social.joinEvent(.init(eventID: fair.eventID), options: tom.bearer)
            }
            #expect(alone?.code == .failedPrecondition && alone?.reason == "NO_GUARDIAN")
        }
    }

    @Test func joinsRacingAddTheMinorOnceAndTellTheGuardiansOnce() async throws {
        try await SocialTestStack.with { stack in
            let maya = try await stack.register("maya", age: 15)
            let olga = try await stack.register("olga", age: 30)
            let fair = try await stack.createEvent("Street fair", by: olga)
            try await stack.follow(maya, olga)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        _ = try await stack.social.joinEvent(
                            .init(eventID: fair.eventID), options: maya.bearer)
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await stack.open(fair.eventID, as: olga).attendeeCount == 1)
            #expect(try await stack.outboxEvents().map(\.type) == ["event.joined"])
        }
    }

    /// The handlers parse event and media ids once, at the edge: anything not a UUID is INVALID_ARGUMENT
    /// naming the field, before any rule runs.
    @Test func malformedEventAndMediaIdsAreNamed() async throws {
        try await SocialTestStack.with { stack in
            let olga = try await stack.register("olga", age: 30)
            let social = stack.social
            for malformed in ["", "fair-42"] {
                let refusals = [
                    (
                        "event_id",
                        await rpcError {
                            try await social.getEvent(.init(eventID: malformed), options: olga.bearer)
                        }
                    ),
                    (
                        "event_id",
                        await rpcError {
                            try await social.joinEvent(.init(eventID: malformed), options: olga.bearer)
                        }
                    ),
                    (
                        "event_id",
                        await rpcError {
                            try await social.leaveEvent(.init(eventID: malformed), options: olga.bearer)
                        }
                    ),
                    (
                        "media_id",
                        await rpcError {
                            try await social.requestMediaView(.init(mediaID: malformed), options: olga.bearer)
                        }
                    ),
                ]
                for (field, refusal) in refusals {
                    #expect(
                        refusal?.code == .invalidArgument && refusal?.badFields == [field],
                        "\(field) \(malformed)")
                }
            }
        }
    }
}
