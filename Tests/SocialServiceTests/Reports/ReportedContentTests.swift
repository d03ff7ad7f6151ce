import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
@testable import SocialService
import Testing

/// What may be reported: content that exists and that the reporter may know of, made by someone else.
@Suite struct ReportedContentTests {
    @Test func contentThatDoesNotExistIsNotFoundWhateverItsKind() async throws {
        try await SocialTestStack.with { stack in
            let test = ReportTest(stack)
            let reporter = ReportTest.someone()
            for kind in [ContentReport.Kind.message, .event, .media] {
                let refusal = await rpcError { try await test.file(kind, ReportTest.someone(), by: reporter) }
                #expect(refusal?.code == .notFound && refusal?.reason == "CONTENT_NOT_FOUND", "\(kind)")
            }
            let nobody = await rpcError { try await test.file(.user, ReportTest.someone(), by: reporter) }
            #expect(nobody?.code == .notFound && nobody?.reason == "USER_NOT_FOUND")
        }
    }

    @Test func nobodyReportsThemselvesOrWhatTheyMade() async throws {
        try await SocialTestStack.with { stack in
            let test = ReportTest(stack)
            let (me, friend) = (try await test.met(), try await test.met())
            let event = try await test.event(by: me)
            let mine: [(ContentReport.Kind, String)] = [
                (.user, me), (.message, try await test.message(from: me, to: friend)), (.event, event),
                (.media, try await test.media(of: event)),
            ]
            for (kind, id) in mine {
                let refusal = await rpcError { try await test.file(kind, id, by: me) }
                #expect(refusal?.code == .invalidArgument && refusal?.reason == "SELF_NOT_ALLOWED", "\(kind)")
            }
            let tallies = try await stack.pool.query("SELECT count(*) FROM social.report_tallies")[0].decode(
                Int.self)
            #expect(tallies == 0)
        }
    }
}
