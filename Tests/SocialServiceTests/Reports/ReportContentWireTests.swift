@testable import ServiceTestSupport
import Foundation
import KindredHandlers
import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// `ReportContent` as apps call it: the answer, who may call it, and what a malformed report is told.
@Suite struct ReportContentWireTests {
    @Test func aPersonReportsThroughTheServerAndOnlyAPersonMay() async throws {
        try await SocialTestStack.with { stack in
            let (ann, ben) = (
                try await stack.register("ann", age: 30), try await stack.register("ben", age: 31)
            )
            let report = Kindred_Social_V1_ReportContentRequest(
                contentKind: .user, contentID: ben.id.uppercased(), reason: "impersonating me")
            let answer = try await stack.social.reportContent(report, options: ann.bearer)
            #expect(answer == .init(reportCount: 1, filtered: false))

            let service = await rpcError {
                try await stack.social.reportContent(report, options: try await stack.serviceBearer())
            }
            #expect(service?.code == .permissionDenied && service?.reason == "ACCOUNT_REQUIRED")
            let anonymous = await rpcError {
                try await stack.social.reportContent(report, options: FamilyTestStack.bearer(nil))
            }
            #expect(anonymous?.code == .unauthenticated)
            let malformed = await rpcError {
                try await stack.social.reportContent(
                    .init(contentKind: .unspecified, contentID: "1234", reason: " "), options: ann.bearer)
            }
            #expect(malformed?.code == .invalidArgument)
            #expect(malformed?.badFields == ["content_kind", "content_id", "reason"])
        }
    }

    @Test func strangersReportingAPrivateEventGetTheRandomIdAnswerAndItsGuestsStillSeeIt() async throws {
        try await SocialTestStack.with { stack in
            let (host, guest) = (
                try await stack.register("host", age: 30), try await stack.register("guest", age: 30)
            )
            let event = try await stack.createEvent("Birthday", by: host, public: false)
            _ = try await stack.social.inviteToEvent(
                .init(eventID: event.eventID, userIds: [guest.id]), options: host.bearer)
            for name in ["stranger1", "stranger2", "stranger3"] {
                let stranger = try await stack.register(name, age: 30)
                let refusal = await rpcError {
                    try await stack.social.reportContent(
                        .init(contentKind: .event, contentID: event.eventID, reason: "spam"),
                        options: stranger.bearer)
                }
                let missing = await rpcError {
                    try await stack.social.reportContent(
                        .init(contentKind: .event, contentID: UUIDv7.generate(at: Date()), reason: "spam"),
                        options: stranger.bearer)
                }
                #expect(refusal != nil && refusal == missing)
            }
            #expect(try await stack.open(event.eventID, as: guest).eventID == event.eventID)
        }
    }
}
