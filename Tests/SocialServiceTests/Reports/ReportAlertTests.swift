@testable import ServiceTestSupport
import KindredMessages
@testable import SocialService
import Testing

/// A new report against a minor's content reaches their guardians at once, through `content.reported`; a
/// repeat, or a report against an adult, tells nobody.
@Suite struct ReportAlertTests {
    @Test func aReportAgainstAMinorsEventTellsTheGuardiansAtOnceAndARepeatDoesNot() async throws {
        try await SocialTestStack.with { stack in
            let test = ReportTest(stack)
            let mia = try await stack.register("mia", age: 15)
            let event = try await test.event(by: mia.id)
            let (ann, ben) = (ReportTest.someone(), ReportTest.someone())
            _ = try await test.file(.event, event, by: ann, reason: "scary pictures")
            #expect(try await stack.outboxEvents().count == 1)
            _ = try await test.file(.event, event, by: ann, reason: "scary pictures, again")
            _ = try await test.file(.event, event, by: ben, reason: "not for kids")
            let told = { (reason: String, reporters: Int32) in
                Kindred_Social_V1_Event.OneOf_Payload.contentReported(
                    .init(
                        minorUserID: mia.id, contentKind: .event, contentID: event, reason: reason,
                        reportCount: reporters))
            }
            let events = try await stack.outboxEvents()
            #expect(events.map(\.type) == ["content.reported", "content.reported"])
            #expect(events.map(\.payload) == [told("scary pictures", 1), told("not for kids", 2)])
        }
    }

    @Test func theMinorIsTheOwnerWhateverIsReported() async throws {
        try await SocialTestStack.with { stack in
            let test = ReportTest(stack)
            let (minor, adult) = (try await test.met(minor: true), try await test.met())
            let event = try await test.event(by: minor)
            let reported: [(ContentReport.Kind, String)] = [
                (.user, minor), (.message, try await test.message(from: minor, to: adult)),
                (.media, try await test.media(of: event)),
            ]
            for (kind, id) in reported { _ = try await test.file(kind, id, by: adult) }
            let told = try await stack.outboxEvents().compactMap { event -> (String, ContentReport.Kind)? in
                guard case .contentReported(let report) = event.payload else { return nil }
                return (report.minorUserID, ContentReport.Kind(rawValue: report.contentKind.rawValue)!)
            }
            #expect(told.map(\.0) == [minor, minor, minor])
            #expect(told.map(\.1) == [.user, .message, .media])
        }
    }

    @Test func reportsAgainstAnAdultsContentTellNobody() async throws {
        try await SocialTestStack.with { stack in
            let test = ReportTest(stack)
            let adam = try await stack.register("adam", age: 30)
            let (minor, event) = (try await test.met(minor: true), try await test.event(by: adam.id))
            _ = try await test.file(.user, adam.id, by: minor)
            _ = try await test.file(.event, event, by: minor)
            _ = try await test.file(.media, try await test.media(of: event), by: minor)
            _ = try await test.file(.message, try await test.message(from: adam.id, to: minor), by: minor)
            #expect(try await stack.outboxEvents().isEmpty)
        }
    }
}
