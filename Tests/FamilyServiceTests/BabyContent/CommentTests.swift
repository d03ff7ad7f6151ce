import Foundation
import KindredHandlers
import KindredMessages
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

@Suite struct CommentTests {
    @Test func membersCommentOnAnEventAndReadThemOldestFirst() async throws {
        try await BabyContentFamily.with { home in
            let event = try await home.createEvent()
            let target = Kindred_Family_V1_CommentTarget(
                profileID: home.profile.description, target: .calendarEventID(event.eventID))
            for (number, user) in [home.grandma, home.mum, home.grandpa].enumerated() {
                home.stack.clock.advance(seconds: 1)
                _ = try await home.family.addComment(
                    .init(
                        requestID: "c-\(number)", target: target, text: "  Comment \(number)\nsecond line  "),
                    options: user.bearer)
            }
            var texts: [String] = []
            var token = ""
            repeat {
                let page = try await home.family.listComments(
                    .init(target: target, page: .init(pageSize: 2, pageToken: token)),
                    options: home.grandpa.bearer)
                texts += page.comments.map(\.text)
                token = page.page?.nextPageToken ?? ""
            } while !token.isEmpty
            #expect(texts == (0..<3).map { "Comment \($0)\nsecond line" })
            #expect(
                try await home.activityKinds() == [
                    .calendarEventAdded, .commentAdded, .commentAdded, .commentAdded,
                ])
        }
    }

    @Test func aRetriedCommentIsWrittenOnce() async throws {
        try await BabyContentFamily.with { home in
            let event = try await home.createEvent()
            let request = Kindred_Family_V1_AddCommentRequest(
                requestID: "once",
                target: .init(profileID: home.profile.description, target: .calendarEventID(event.eventID)),
                text: "Lovely!")
            let first = try await home.family.addComment(request, options: home.grandma.bearer).comment
            let again = try await home.family.addComment(request, options: home.grandma.bearer).comment
            #expect(first == again)
            #expect(try await home.count("baby_comments") == 1)
        }
    }

    @Test(arguments: [
        ("Carriage\rreturn", "text"), ("Tab\there", "text"), ("Next\u{85}line", "text"),
        ("Bell\u{7}", "text"), ("   \n  ", "text"),
        (String(repeating: "é", count: 1_001), "text"),
    ])
    func aCommentWithControlCharactersOrOfTheWrongLengthIsRefused(text: String, field: String) async throws {
        try await BabyContentFamily.with { home in
            let event = try await home.createEvent()
            let refused = await rpcError {
                try await home.family.addComment(
                    .init(
                        requestID: "bad",
                        target: .init(
                            profileID: home.profile.description, target: .calendarEventID(event.eventID)),
                        text: text), options: home.grandma.bearer)
            }
            #expect(refused?.code == .invalidArgument && refused?.badFields == [field])
            #expect(try await home.count("baby_comments") == 0)
        }
    }

    @Test func aCommentOfExactlyTheLimitAndOneWithWindowsLineBreaksAreKept() async throws {
        try await BabyContentFamily.with { home in
            let event = try await home.createEvent()
            let comment = try await home.family.addComment(
                .init(
                    requestID: "long",
                    target: .init(
                        profileID: home.profile.description, target: .calendarEventID(event.eventID)),
                    text: String(repeating: "é", count: 1_000)), options: home.grandma.bearer
            ).comment
            #expect(comment?.text.count == 1_000)
            let windows = try await home.family.addComment(
                .init(
                    requestID: "crlf",
                    target: .init(
                        profileID: home.profile.description, target: .calendarEventID(event.eventID)),
                    text: "First line\r\nsecond line"), options: home.grandma.bearer
            ).comment
            #expect(windows?.text == "First line\nsecond line")
        }
    }

    @Test func aTargetThatIsNotOnTheProfileIsNotFound() async throws {
        try await BabyContentFamily.with { home in
            let elsewhere = try await home.stack.babyProfile(ownedBy: home.grandpa)
            let theirs = try await home.family.createCalendarEvent(
                .init(requestID: "x", profileID: elsewhere.description, event: home.event()),
                options: home.grandpa.bearer
            ).event!
            let photo = PhotoID.generate(at: home.stack.clock.now).description
            for target in [
                Kindred_Family_V1_CommentTarget.OneOf_Target.calendarEventID(theirs.eventID), .photoID(photo),
                .announcement(true),
            ] {
                let refused = await rpcError {
                    try await home.family.addComment(
                        .init(
                            requestID: "r",
                            target: .init(profileID: home.profile.description, target: target),
                            text: "Hi"), options: home.grandma.bearer)
                }
                #expect(refused?.code == .notFound && refused?.reason == "COMMENT_TARGET_NOT_FOUND")
            }
            #expect(try await home.count("baby_comments") == 0)
        }
    }

    @Test func theAuthorOrAnOwnerDeletesACommentAndNoOtherFollower() async throws {
        try await BabyContentFamily.with { home in
            let event = try await home.createEvent()
            let target = Kindred_Family_V1_CommentTarget(
                profileID: home.profile.description, target: .calendarEventID(event.eventID))
            let first = try await home.family.addComment(
                .init(requestID: "1", target: target, text: "First"), options: home.grandma.bearer
            ).comment!
            let second = try await home.family.addComment(
                .init(requestID: "2", target: target, text: "Second"), options: home.grandma.bearer
            ).comment!
            let delete = { (comment: Kindred_Family_V1_Comment, user: TestUser) in
                try await home.family.deleteComment(
                    .init(profileID: home.profile.description, commentID: comment.commentID),
                    options: user.bearer)
            }
            let refused = await rpcError { try await delete(first, home.grandpa) }
            #expect(refused?.code == .permissionDenied && refused?.reason == "COMMENT_NOT_YOURS")
            #expect(try await home.count("baby_comments") == 2)
            _ = try await delete(first, home.grandma)
            _ = try await delete(second, home.mum)
            #expect(try await home.count("baby_comments") == 0)
            let gone = await rpcError { try await delete(first, home.grandma) }
            #expect(gone?.code == .notFound && gone?.reason == "COMMENT_NOT_FOUND")
        }
    }
}

@Suite struct CommentRequestTests {
    @Test func aTargetWithoutAProfileOrAThingIsNamedFieldByField() async throws {
        try await BabyContentFamily.with { home in
            let refused = await rpcError {
                try await home.family.addComment(
                    .init(requestID: "", target: .init(profileID: "nope"), text: ""),
                    options: home.grandma.bearer)
            }
            #expect(refused?.code == .invalidArgument)
            #expect(refused?.badFields == ["request_id", "target.profile_id", "target", "text"])
            let listed = await rpcError {
                try await home.family.listComments(
                    .init(target: .init(profileID: home.profile.description, target: .calendarEventID("x"))),
                    options: home.grandma.bearer)
            }
            #expect(listed?.badFields == ["target.calendar_event_id"])
        }
    }
}
