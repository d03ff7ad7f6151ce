import Foundation
@testable import ServiceTestSupport
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// `ListFeed`: what a caller's feed holds and how it pages.
@Suite struct FeedTests {
    @Test func theFeedHoldsPublicEventsAndTheFollowedPeoplesEventsTheCallerMaySeeNewestFirstPageByPage()
        async throws
    {
        try await SocialTestStack.with { stack in
            let (val, olga, fred, sam) = (
                try await stack.register("val", age: 30), try await stack.register("olga", age: 30),
                try await stack.register("fred", age: 30), try await stack.register("sam", age: 30)
            )
            try await stack.follow(val, olga)
            try await stack.follow(val, fred)
            try await stack.befriend(val, olga)
            let olgasPrivate = try await stack.createEvent("Olga's dinner", by: olga, public: false)
            // Invited as well as a friend: still once in the feed.
            _ = try await stack.social.inviteToEvent(
                .init(eventID: olgasPrivate.eventID, userIds: [val.id]), options: olga.bearer)
            try await stack.createEvent("Fred's dinner", by: fred, public: false)
            let fredsInvite = try await stack.createEvent("Fred's party", by: fred, public: false)
            _ = try await stack.social.inviteToEvent(
                .init(eventID: fredsInvite.eventID, userIds: [val.id]), options: fred.bearer)
            let samsPublic = try await stack.createEvent("Sam's fair", by: sam)
            try await stack.createEvent("Sam's dinner", by: sam, public: false)
            let olgasPublic = try await stack.createEvent("Olga's fair", by: olga)

            var pages: [[String]] = []
            var token = ""
            repeat {
                let page = try await stack.social.listFeed(
                    .init(page: .init(pageSize: 2, pageToken: token)), options: val.bearer)
                pages.append(page.events.map(\.eventID))
                token = page.page?.nextPageToken ?? ""
            } while !token.isEmpty && pages.count < 5
            #expect(
                pages == [
                    [olgasPublic.eventID, samsPublic.eventID], [fredsInvite.eventID, olgasPrivate.eventID],
                ])
            let forged = await rpcError {
                try await stack.social.listFeed(
                    .init(page: .init(pageToken: "bm90IGEgdG9rZW4")), options: val.bearer)
            }
            #expect(forged?.badFields == ["page.page_token"])
        }
    }

    // A page's media are read only for the events that have some; the others show none.
    @Test func eachEventOnAFeedPageShowsItsOwnMediaAndAnEventWithoutMediaShowsNone() async throws {
        try await SocialTestStack.with { stack in
            let (val, olga) = (
                try await stack.register("val", age: 30), try await stack.register("olga", age: 30)
            )
            let plain = try await stack.createEvent("Picnic", by: olga)
            let fair = try await stack.createEvent(
                "Street fair", by: olga,
                media: [.init(url: "https://cdn.example/map.png", contentType: "image/png")])
            let feed = try await stack.social.listFeed(.init(), options: val.bearer).events
            #expect(feed.map(\.eventID) == [fair.eventID, plain.eventID])
            #expect(feed.map { $0.media.map(\.mediaID) } == [[fair.media[0].mediaID], []])
        }
    }
}
