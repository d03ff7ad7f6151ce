import Foundation
@testable import ServiceTestSupport
import KindredAPI
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// Who may see an event, invite to it and join it, from the side of the stranger and the blocked user.
@Suite struct EventVisibilityTests {
    @Test func aStrangerCannotOpenAPrivateEventByIDWhileAFriendAndAnInviteeCan() async throws {
        try await SocialTestStack.with { stack in
            let (olga, fred, ivan, sam) = (
                try await stack.register("olga", age: 30), try await stack.register("fred", age: 30),
                try await stack.register("ivan", age: 30), try await stack.register("sam", age: 30)
            )
            try await stack.befriend(olga, fred)
            let party = try await stack.createEvent("House party", by: olga, public: false)
            let answers = [
                await rpcError { try await stack.open(party.eventID, as: sam) },
                await rpcError { try await stack.open(UUIDv7.generate(at: Date()), as: sam) },
                await rpcError {
                    try await stack.social.joinEvent(.init(eventID: party.eventID), options: sam.bearer)
                },
            ]
            #expect(answers.map { $0?.code } == [.notFound, .notFound, .notFound])
            #expect(answers.map { $0?.reason } == ["EVENT_NOT_FOUND", "EVENT_NOT_FOUND", "EVENT_NOT_FOUND"])

            #expect(try await stack.open(party.eventID, as: fred).title == "House party")
            #expect(await rpcError { try await stack.open(party.eventID, as: ivan) }?.code == .notFound)
            let invited = try await stack.social.inviteToEvent(
                .init(eventID: party.eventID, userIds: [ivan.id.uppercased(), UUIDv7.generate(at: Date())]),
                options: olga.bearer)
            #expect(invited.invitedUserIds == [ivan.id])
            let joined = try await stack.social.joinEvent(.init(eventID: party.eventID), options: ivan.bearer)
            #expect(joined.event?.joined == true && joined.event?.attendeeCount == 1)
            let again = try await stack.social.inviteToEvent(
                .init(eventID: party.eventID, userIds: [ivan.id]), options: olga.bearer)
            #expect(again.invitedUserIds.isEmpty)
        }
    }

    @Test func onlyTheOrganizerInvites() async throws {
        try await SocialTestStack.with { stack in
            let (olga, fred, sam) = (
                try await stack.register("olga", age: 30), try await stack.register("fred", age: 30),
                try await stack.register("sam", age: 30)
            )
            try await stack.befriend(olga, fred)
            let party = try await stack.createEvent("House party", by: olga, public: false)
            let invite = Kindred_Social_V1_InviteToEventRequest(eventID: party.eventID, userIds: [sam.id])
            let byFriend = await rpcError {
                try await stack.social.inviteToEvent(invite, options: fred.bearer)
            }
            #expect(byFriend?.code == .permissionDenied && byFriend?.reason == "NOT_ORGANIZER")
            let byStranger = await rpcError {
                try await stack.social.inviteToEvent(invite, options: sam.bearer)
            }
            #expect(byStranger?.code == .notFound && byStranger?.reason == "EVENT_NOT_FOUND")
            let tooMany = Kindred_Social_V1_InviteToEventRequest(
                eventID: party.eventID, userIds: (0...100).map { _ in UUIDv7.generate(at: Date()) } + ["nope"]
            )
            let refused = await rpcError {
                try await stack.social.inviteToEvent(tooMany, options: olga.bearer)
            }
            #expect(refused?.badFields == ["user_ids", "user_ids[101]"])
        }
    }

    @Test func aBlockEitherWayHidesTheEventAndStopsJoiningAndInvitations() async throws {
        try await SocialTestStack.with { stack in
            let (olga, bert, bella, fred) = (
                try await stack.register("olga", age: 30), try await stack.register("bert", age: 30),
                try await stack.register("bella", age: 30), try await stack.register("fred", age: 30)
            )
            try await stack.befriend(olga, fred)
            let fair = try await stack.createEvent("Street fair", by: olga)
            try await stack.block(olga, bert)
            try await stack.block(bella, olga)
            for blocked in [bert, bella] {
                let opened = await rpcError { try await stack.open(fair.eventID, as: blocked) }
                let joined = await rpcError {
                    try await stack.social.joinEvent(.init(eventID: fair.eventID), options: blocked.bearer)
                }
                #expect(opened?.reason == "EVENT_NOT_FOUND" && joined?.reason == "EVENT_NOT_FOUND")
                let feed = try await stack.social.listFeed(.init(), options: blocked.bearer)
                #expect(feed.events.isEmpty)
            }
            let invited = try await stack.social.inviteToEvent(
                .init(eventID: fair.eventID, userIds: [bert.id, bella.id, fred.id]), options: olga.bearer)
            #expect(invited.invitedUserIds == [fred.id])
            #expect(try await stack.open(fair.eventID, as: olga).eventID == fair.eventID)
        }
    }
}
