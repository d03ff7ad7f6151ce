import KindredMessages
import KindredRPC
import KindredTestSupport
@testable import SocialService
import Testing

/// The fields of a report, checked before anything is looked up.
@Suite struct ContentReportTests {
    typealias Request = Kindred_Social_V1_ReportContentRequest

    static let valid = Request(
        contentKind: .media, contentID: "01900000-0000-7000-8000-00000000000A", reason: "spam")

    /// `valid` with one change.
    static func changed(_ change: (inout Request) -> Void) -> Request {
        var request = valid
        change(&request)
        return request
    }

    @Test func theLongestReasonIsAcceptedAndTheIdKeptInLowerCase() throws {
        let longest = String(repeating: "é", count: ContentReport.longestReason)
        let report = try ContentReport(Self.changed { $0.reason = longest })
        #expect(
            report.kind == .media && report.contentID == ContentID("01900000-0000-7000-8000-00000000000a"))
        #expect(report.reason == longest)
    }

    @Test(arguments: [
        (changed { $0.contentKind = .unspecified }, "content_kind"),
        (changed { $0.contentKind = .unrecognized(9) }, "content_kind"),
        (changed { $0.contentID = "" }, "content_id"),
        (changed { $0.contentID = String($0.contentID.dropLast()) }, "content_id"),
        (changed { $0.reason = "" }, "reason"),
        (changed { $0.reason = " \n " }, "reason"),
        (changed { $0.reason = String(repeating: "x", count: ContentReport.longestReason + 1) }, "reason"),
        (changed { $0.reason = "ding\u{7}" }, "reason"),
    ])
    func eachBadFieldIsNamed(request: Request, field: String) throws {
        let refusal = try #require(throws: RPCError.self) { try ContentReport(request) }
        #expect(refusal.code == .invalidArgument && refusal.badFields == [field])
    }

    @Test func aReasonMayBreakLinesAndHoldTabs() throws {
        let report = try ContentReport(Self.changed { $0.reason = "line one\r\n\tline two" })
        #expect(report.reason == "line one\r\n\tline two")
    }
}
