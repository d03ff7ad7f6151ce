import Foundation
@testable import ServiceTestSupport
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// Content filtering and reports, from the side of the minor opening filtered content by id and of the
/// reports that filter content for everyone.
@Suite struct ContentFilterTests {
    @Test func aFilteringMinorCannotOpenJoinOrSeeAMatureEventUntilTheFilterIsTurnedOff() async throws {
        try await SocialTestStack.with { stack in
            let maya = try await stack.register("maya", age: 15)
            let olga = try await stack.register("olga", age: 30)
            let rave = try await stack.createEvent("Rave", by: olga, mature: true)
            let walk = try await stack.createEvent("Walk", by: olga)
            let refusals = [
                await rpcError { try await stack.open(rave.eventID, as: maya) },
                await rpcError {
                    try await stack.social.joinEvent(.init(eventID: rave.eventID), options: maya.bearer)
                },
            ]
            #expect(refusals.map { $0?.code } == [.permissionDenied, .permissionDenied])
            #expect(refusals.map { $0?.reason } == ["CONTENT_FILTERED", "CONTENT_FILTERED"])
            let feed = {
                try await stack.social.listFeed(.init(), options: maya.bearer).events.map(\.eventID)
            }
            #expect(try await feed() == [walk.eventID])

            try await stack.setControls(of: maya, contentFiltering: false)
            #expect(try await stack.open(rave.eventID, as: maya).mature)
            #expect(try await feed() == [walk.eventID, rave.eventID])
        }
    }

    @Test func theThirdReportFiltersAnEventForEveryoneButItsOrganizer() async throws {
        try await SocialTestStack.with { stack in
            let (olga, adam, bea, cal) = (
                try await stack.register("olga", age: 30), try await stack.register("adam", age: 30),
                try await stack.register("bea", age: 30), try await stack.register("cal", age: 30)
            )
            let fair = try await stack.createEvent("Street fair", by: olga)
            let report = Kindred_Social_V1_ReportContentRequest(
                contentKind: .event, contentID: fair.eventID, reason: "spam")
            for reporter in [adam, bea, adam] {
                _ = try await stack.social.reportContent(report, options: reporter.bearer)
            }
            #expect(try await stack.open(fair.eventID, as: adam).eventID == fair.eventID)
            _ = try await stack.social.reportContent(report, options: cal.bearer)
            let filtered = await rpcError { try await stack.open(fair.eventID, as: adam) }
            #expect(filtered?.code == .permissionDenied && filtered?.reason == "CONTENT_FILTERED")
            #expect(try await stack.social.listFeed(.init(), options: adam.bearer).events.isEmpty)
            #expect(try await stack.open(fair.eventID, as: olga).eventID == fair.eventID)
        }
    }

    @Test func flaggedMediaStaysHiddenFromAFilteringMinorUntilAGuardianApprovesIt() async throws {
        try await SocialTestStack.with { stack in
            let maya = try await stack.register("maya", age: 15)
            let gina = try await stack.guardian("gina", of: maya)
            let (olga, adam) = (
                try await stack.register("olga", age: 30), try await stack.register("adam", age: 30)
            )
            let fair = try await stack.createEvent(
                "Street fair", by: olga,
                media: [
                    .init(url: "https://cdn.example/map.png", contentType: "image/png"),
                    .init(url: "https://cdn.example/show.mp4", contentType: "video/mp4", flagged: true),
                    .init(url: "https://cdn.example/spam.png", contentType: "image/png"),
                ])
            let (map, show, spam) = (fair.media[0].mediaID, fair.media[1].mediaID, fair.media[2].mediaID)
            try await stack.setReports(3, of: .media, spam)
            let seen = try await stack.open(fair.eventID, as: maya)
            #expect(seen.media.map(\.mediaID) == [map] && seen.hiddenMediaIds == [show])
            let inFeed = try await stack.social.listFeed(.init(), options: maya.bearer).events
            #expect(inFeed.map(\.hiddenMediaIds) == [[show]])
            #expect(try await stack.open(fair.eventID, as: adam).media.map(\.mediaID) == [map, show])

            let ask = { (media: String, user: TestUser) in
                try await stack.social.requestMediaView(.init(mediaID: media), options: user.bearer)
                    .approvalID
            }
            #expect(await rpcError { try await ask(map, maya) }?.reason == "MEDIA_NOT_HIDDEN")
            #expect(await rpcError { try await ask(show, adam) }?.reason == "MEDIA_NOT_HIDDEN")
            #expect(await rpcError { try await ask(spam, maya) }?.reason == "CONTENT_FILTERED")
            let approvalID = try await ask(show, maya)
            #expect(try await ask(show, maya) == approvalID)
            #expect(try await stack.open(fair.eventID, as: maya).hiddenMediaIds == [show])

            try await stack.decide(approvalID, approve: true, by: gina)
            let approved = try await stack.open(fair.eventID, as: maya)
            #expect(approved.media.map(\.mediaID) == [map, show] && approved.hiddenMediaIds.isEmpty)
            let kept = try await stack.pool.query(
                "SELECT state FROM social.media_view_approvals WHERE approval_id = \(approvalID)::uuid")
            #expect(try kept.decode(Int.self) == [ApprovalState.approved.rawValue])
            #expect(await rpcError { try await ask(show, maya) }?.reason == "MEDIA_NOT_HIDDEN")
        }
    }
}
