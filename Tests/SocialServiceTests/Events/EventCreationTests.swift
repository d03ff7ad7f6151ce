import Foundation
@testable import ServiceTestSupport
import KindredAPI
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// `CreateEvent`, from the side of the minor whose guardian restricted public events and of the client that
/// sends anything.
@Suite struct EventCreationTests {
    @Test func aRestrictedMinorMayCreateAPrivateEventButNotAPublicOneUntilTheRestrictionIsLifted()
        async throws
    {
        try await SocialTestStack.with { stack in
            let maya = try await stack.register("maya", age: 15)
            let refused = await rpcError { try await stack.createEvent("Beach party", by: maya) }
            #expect(refused?.code == .permissionDenied)
            #expect(refused?.reason == "PARENTAL_CONTROLS_PUBLIC_EVENT_RESTRICTED")
            #expect(try await stack.pool.query("SELECT 1 FROM social.events").isEmpty)

            let picnic = try await stack.createEvent("Picnic", by: maya, public: false)
            #expect(picnic.visibility == .private && picnic.organizer?.userID == maya.id)
            try await stack.setControls(of: maya, publicEventsRestricted: false)
            #expect(try await stack.createEvent("Beach party", by: maya).visibility == .public)
        }
    }

    @Test func retriesWithTheSameRequestIDEvenRacingAnswerTheFirstEventAndMakeNoSecond() async throws {
        try await SocialTestStack.with { stack in
            let adam = try await stack.register("adam", age: 30)
            let media = [
                Kindred_Social_V1_MediaInput(url: "https://cdn.example/a.jpg", contentType: "image/jpeg")
            ]
            let racing = try await withThrowingTaskGroup(of: Kindred_Social_V1_SocialEvent.self) { group in
                for _ in 0..<3 {
                    group.addTask { try await stack.createEvent("Barbecue", by: adam, media: media) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let first = try #require(racing.first)
            #expect(racing == [first, first, first])
            #expect(try await stack.createEvent("Barbecue", by: adam, media: media) == first)
            #expect(first.media.count == 1 && first.media[0].url == "https://cdn.example/a.jpg")
            let rows = try await stack.pool.query(
                "SELECT (SELECT count(*) FROM social.events), (SELECT count(*) FROM social.event_media)")
            #expect(try rows[0].decode((Int, Int).self) == (1, 1))
        }
    }

    @Test func oneRefusalNamesEveryBadField() async throws {
        try await SocialTestStack.with { stack in
            let adam = try await stack.register("adam", age: 30)
            let tooMany = Array(
                repeating: Kindred_Social_V1_MediaInput(
                    url: "https://x.example/p.png", contentType: "image/png"), count: 11)
            let bad = Kindred_Social_V1_CreateEventRequest(
                requestID: "", title: String(repeating: "t", count: 201),
                description: String(repeating: "d", count: 5_001),
                startsAt: Date(timeIntervalSince1970: 1_830_000_000),
                endsAt: Date(timeIntervalSince1970: 1_820_000_000), place: "line\nbreak",
                media: [
                    Kindred_Social_V1_MediaInput(url: "http://cdn.example/a.jpg", contentType: "image/jpeg"),
                    Kindred_Social_V1_MediaInput(
                        url: "https://cdn.example/a.pdf", contentType: "application/pdf"),
                    Kindred_Social_V1_MediaInput(
                        url: "https://cdn.example/a b.png", contentType: "image/png"),
                ])
            let error = await rpcError { try await stack.social.createEvent(bad, options: adam.bearer) }
            #expect(error?.code == .invalidArgument)
            #expect(
                error?.badFields == [
                    "request_id", "title", "description", "place", "ends_at", "visibility", "media[0].url",
                    "media[1].content_type", "media[2].url",
                ])
            var noStart = bad
            (noStart.requestID, noStart.title, noStart.description, noStart.place) = ("r", "Fine", "", "Here")
            (noStart.startsAt, noStart.visibility, noStart.media) = (nil, .private, tooMany)
            let missing = await rpcError { try await stack.social.createEvent(noStart, options: adam.bearer) }
            #expect(missing?.badFields == ["starts_at", "media"])
        }
    }
}
