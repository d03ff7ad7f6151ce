import Foundation
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// A stranger to a profile learns nothing of it through any content RPC: the answer is the one an id that
/// names nothing gets, and nothing changes.
@Suite struct ContentStrangerTests {
    /// Every content RPC, as `user` would call it on `profile`'s `event`, `item` and `comment`.
    private func calls(
        _ home: BabyContentFamily, as user: TestUser, profile: String, event: String, item: String,
        comment: String
    ) -> [(String, () async throws -> Void)] {
        let (family, options) = (home.family, user.bearer)
        let target = Kindred_Family_V1_CommentTarget(profileID: profile, target: .calendarEventID(event))
        return [
            (
                "CreateCalendarEvent",
                {
                    _ = try await family.createCalendarEvent(
                        .init(requestID: "s", profileID: profile, event: home.event()), options: options)
                }
            ),
            (
                "GetCalendarEvent",
                {
                    _ = try await family.getCalendarEvent(
                        .init(profileID: profile, eventID: event), options: options)
                }
            ),
            (
                "UpdateCalendarEvent",
                {
                    _ = try await family.updateCalendarEvent(
                        .init(
                            profileID: profile, eventID: event, updateMask: ["name"],
                            event: .init(name: "Mine")), options: options)
                }
            ),
            (
                "DeleteCalendarEvent",
                {
                    _ = try await family.deleteCalendarEvent(
                        .init(profileID: profile, eventID: event), options: options)
                }
            ),
            (
                "ListCalendarEvents",
                { _ = try await family.listCalendarEvents(.init(profileID: profile), options: options) }
            ),
            (
                "SetRsvp",
                {
                    _ = try await family.setRsvp(
                        .init(profileID: profile, eventID: event, answer: .attending), options: options)
                }
            ),
            (
                "ListRsvps",
                {
                    _ = try await family.listRsvps(
                        .init(profileID: profile, eventID: event), options: options)
                }
            ),
            (
                "AddComment",
                {
                    _ = try await family.addComment(
                        .init(requestID: "s", target: target, text: "Hi"), options: options)
                }
            ),
            ("ListComments", { _ = try await family.listComments(.init(target: target), options: options) }),
            (
                "DeleteComment",
                {
                    _ = try await family.deleteComment(
                        .init(profileID: profile, commentID: comment), options: options)
                }
            ),
            (
                "CreateRegistryItem",
                {
                    _ = try await family.createRegistryItem(
                        .init(requestID: "s", profileID: profile, item: .init(name: "Toy")), options: options)
                }
            ),
            (
                "UpdateRegistryItem",
                {
                    _ = try await family.updateRegistryItem(
                        .init(
                            profileID: profile, itemID: item, updateMask: ["name"], item: .init(name: "Mine")),
                        options: options)
                }
            ),
            (
                "DeleteRegistryItem",
                {
                    _ = try await family.deleteRegistryItem(
                        .init(profileID: profile, itemID: item), options: options)
                }
            ),
            (
                "ListRegistryItems",
                { _ = try await family.listRegistryItems(.init(profileID: profile), options: options) }
            ),
            (
                "PurchaseRegistryItem",
                {
                    _ = try await family.purchaseRegistryItem(
                        .init(profileID: profile, itemID: item), options: options)
                }
            ),
            (
                "UndoRegistryPurchase",
                {
                    _ = try await family.undoRegistryPurchase(
                        .init(profileID: profile, itemID: item), options: options)
                }
            ),
        ]
    }

    @Test func aStrangerGetsTheAnswerOfAnUnknownProfileOnEveryContentRPCAndChangesNothing() async throws {
        try await BabyContentFamily.with { home in
            let event = try await home.createEvent()
            let item = try await home.createItem()
            _ = try await home.family.purchaseRegistryItem(
                .init(profileID: home.profile.description, itemID: item.itemID), options: home.grandma.bearer)
            let comment = try await home.family.addComment(
                .init(
                    requestID: "c",
                    target: .init(
                        profileID: home.profile.description, target: .calendarEventID(event.eventID)),
                    text: "Hello"), options: home.grandma.bearer
            ).comment!
            let before = try await home.activityKinds()
            let unknown = BabyProfileID.generate(at: home.stack.clock.now).description
            let stranger = calls(
                home, as: home.stranger, profile: home.profile.description, event: event.eventID,
                item: item.itemID,
                comment: comment.commentID)
            let nobody = calls(
                home, as: home.stranger, profile: unknown, event: event.eventID, item: item.itemID,
                comment: comment.commentID)
            #expect(stranger.count == 16)
            for ((name, call), (_, unknownCall)) in zip(stranger, nobody) {
                let refused = await rpcError(call)
                let forUnknown = await rpcError(unknownCall)
                #expect(refused?.code == .notFound && refused?.reason == "BABY_PROFILE_NOT_FOUND", "\(name)")
                #expect(
                    refused?.message == forUnknown?.message && refused?.details == forUnknown?.details,
                    "\(name)")
            }
            #expect(try await home.activityKinds() == before)
            #expect(try await home.count("calendar_events") == 1)
            #expect(try await home.count("registry_items") == 1)
            #expect(try await home.count("baby_comments") == 1)
            let spanning = try await home.family.listRegistryItems(.init(), options: home.stranger.bearer)
            #expect(spanning.items.isEmpty)
            let events = try await home.family.listCalendarEvents(.init(), options: home.stranger.bearer)
            #expect(events.events.isEmpty)
        }
    }

    @Test func aDeactivatedProfilesContentIsGoneForItsMembers() async throws {
        try await BabyContentFamily.with { home in
            let event = try await home.createEvent()
            let item = try await home.createItem()
            try await home.stack.pool.query(
                "UPDATE family.baby_profiles SET active = false WHERE profile_id = \(home.profile)::uuid")
            let reads = [
                await rpcError {
                    try await home.family.getCalendarEvent(
                        .init(profileID: home.profile.description, eventID: event.eventID),
                        options: home.grandma.bearer)
                },
                await rpcError {
                    try await home.family.purchaseRegistryItem(
                        .init(profileID: home.profile.description, itemID: item.itemID),
                        options: home.grandma.bearer)
                },
            ]
            for refused in reads { #expect(refused?.reason == "BABY_PROFILE_NOT_FOUND") }
            let spanning = try await home.family.listRegistryItems(.init(), options: home.mum.bearer)
            #expect(spanning.items.isEmpty)
        }
    }
}
