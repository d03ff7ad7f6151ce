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

            let pages = try await Self.pages(of: val, in: stack)
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

    // The report that reaches the threshold marks the event's row, which each of the feed's three parts reads
    // before its page's limit: a filtered event leaves the public events, a followed friend's private ones and
    // the invitations alike, and the pages around it stay full. Two reports, or three of another kind with
    // the same id, filter nothing.
    @Test func anEventReportedByThreePeopleLeavesEveryPartOfTheFeedAndThePagesStayFull() async throws {
        try await SocialTestStack.with { stack in
            let (val, olga, fred) = (
                try await stack.register("val", age: 30), try await stack.register("olga", age: 30),
                try await stack.register("fred", age: 30)
            )
            let reporters = [
                try await stack.register("adam", age: 30), try await stack.register("bea", age: 30),
                try await stack.register("cal", age: 30),
            ]
            try await stack.follow(val, olga)
            try await stack.befriend(val, olga)
            try await stack.follow(val, fred)
            func event(_ title: String, by organizer: TestUser, public isPublic: Bool = true) async throws
                -> String
            {
                let id = try await stack.createEvent(title, by: organizer, public: isPublic).eventID
                if !isPublic {
                    _ = try await stack.social.inviteToEvent(
                        .init(eventID: id, userIds: [val.id] + reporters.map(\.id)), options: organizer.bearer
                    )
                }
                return id
            }
            func report(_ kind: Kindred_Social_V1_ContentKind, _ id: String, by people: [TestUser])
                async throws
            {
                for reporter in people {
                    _ = try await stack.social.reportContent(
                        .init(contentKind: kind, contentID: id, reason: "spam"), options: reporter.bearer)
                }
            }
            let publicKept = try await event("Fair", by: olga)
            let publicFiltered = try await event("Spam fair", by: olga)
            let privateKept = try await event("Dinner", by: olga, public: false)
            let privateFiltered = try await event("Spam dinner", by: olga, public: false)
            let invitedFiltered = try await event("Spam party", by: fred, public: false)
            let invitedKept = try await event("Party", by: fred, public: false)
            let twiceReported = try await event("Picnic", by: olga)
            for id in [publicFiltered, privateFiltered, invitedFiltered] {
                try await report(.event, id, by: reporters)
            }
            try await report(.event, twiceReported, by: Array(reporters.prefix(2)))
            try await stack.setReports(3, of: .media, publicKept)

            let pages = try await Self.pages(of: val, in: stack)
            #expect(pages == [[twiceReported, invitedKept], [privateKept, publicKept]])
            #expect(try await Self.pages(of: olga, in: stack).joined().contains(publicFiltered) == false)
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
            #expect(fair.media.count == 1)
            #expect(feed.map { $0.media.map(\.mediaID) } == [fair.media.map(\.mediaID), []])
        }
    }

    /// `user`'s feed page by page, two events a page (five pages at most: a token that never ends stops there).
    private static func pages(of user: TestUser, in stack: SocialTestStack) async throws -> [[String]] {
        var pages: [[String]] = []
        var token = ""
        repeat {
            let page = try await stack.social.listFeed(
                .init(page: .init(pageSize: 2, pageToken: token)), options: user.bearer)
            pages.append(page.events.map(\.eventID))
            token = page.page?.nextPageToken ?? ""
        } while !token.isEmpty && pages.count < 5
        return pages
    }
}
