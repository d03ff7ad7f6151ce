import KindredRPC
import KindredTestSupport
@testable import ServiceTestSupport
@testable import SocialService
import Testing

/// Only content the reporter may see can be reported, by the rule its reads apply; anyone else gets exactly
/// the answer an id that names nothing gets, and nothing is counted. Before, a stranger's report of a private
/// event answered OK with the count, and three strangers filtered it for its own guests.
@Suite struct ReportVisibilityTests {
    /// What `reporter` is told for a random id of `kind`: the answer a refused report must equal, byte for byte.
    static func randomIdAnswer(_ test: ReportTest, _ kind: ContentReport.Kind, by reporter: String) async
        -> RPCError?
    {
        await rpcError { try await test.file(kind, ReportTest.someone(), by: reporter) }
    }

    /// Expects `reporter`'s report of `kind` `id` to be answered as a random id is, and to count nothing.
    static func expectRefusedAsMissing(
        _ test: ReportTest, _ kind: ContentReport.Kind, _ id: String, by reporter: String
    ) async throws {
        let refusal = await rpcError { try await test.file(kind, id, by: reporter) }
        let missing = await randomIdAnswer(test, kind, by: reporter)
        #expect(refusal != nil && refusal == missing, "\(kind)")
        #expect(try await test.tally(kind, id) == nil, "\(kind)")
    }

    @Test func strangersReportingAPrivateEventOrItsMediaAreAnsweredAsForARandomIdAndFilterNothing()
        async throws
    {
        try await SocialTestStack.with { stack in
            let test = ReportTest(stack)
            let event = try await test.event(by: try await test.met(), public: false)
            let media = try await test.media(of: event)
            for _ in 1...ReportTally.filterThreshold {
                let stranger = ReportTest.someone()
                try await Self.expectRefusedAsMissing(test, .event, event, by: stranger)
                try await Self.expectRefusedAsMissing(test, .media, media, by: stranger)
            }
            let refusal = await rpcError { try await test.file(.event, event, by: ReportTest.someone()) }
            #expect(refusal == SocialError.contentNotFound)
            let reports = try await stack.pool.query("SELECT count(*) FROM social.reports")[0].decode(
                Int.self)
            #expect(reports == 0)
        }
    }

    @Test func anInvitedGuestOrAFriendMayReportAPrivateEvent() async throws {
        try await SocialTestStack.with { stack in
            let test = ReportTest(stack)
            let (organizer, guest, friend) = (
                try await test.met(), ReportTest.someone(), ReportTest.someone()
            )
            let event = try await test.event(by: organizer, public: false)
            try await stack.pool.query(
                "INSERT INTO social.event_invitations VALUES (\(event)::uuid, \(guest)::uuid, now())")
            try await stack.pool.query(
                "INSERT INTO social.friendships VALUES (\(friend)::uuid, \(organizer)::uuid, now())")
            #expect(try await test.file(.event, event, by: guest).reporters == 1)
            #expect(try await test.file(.media, try await test.media(of: event), by: friend).reporters == 1)
        }
    }

    @Test(arguments: [true, false])
    func aPublicEventAcrossABlockWithItsOrganizerIsAnsweredAsForARandomId(organizerBlocked: Bool) async throws
    {
        try await SocialTestStack.with { stack in
            let test = ReportTest(stack)
            let (organizer, reporter) = (try await test.met(), try await test.met())
            let event = try await test.event(by: organizer)
            let media = try await test.media(of: event)
            if organizerBlocked {
                try await test.block(organizer, reporter)
            } else {
                try await test.block(reporter, organizer)
            }
            try await Self.expectRefusedAsMissing(test, .event, event, by: reporter)
            try await Self.expectRefusedAsMissing(test, .media, media, by: reporter)
        }
    }

    @Test func aMessageIsReportedOnlyByItsPartiesWhileNeitherBlockedTheOther() async throws {
        try await SocialTestStack.with { stack in
            let test = ReportTest(stack)
            let (ann, ben) = (try await test.met(), try await test.met())
            let message = try await test.message(from: ann, to: ben)
            try await Self.expectRefusedAsMissing(test, .message, message, by: ReportTest.someone())
            try await Self.expectRefusedAsMissing(test, .message, message, by: try await test.met())
            // As `ListMessages` answers across a block: no conversation, so no message to report.
            try await test.block(ben, ann)
            try await Self.expectRefusedAsMissing(test, .message, message, by: ben)
            try await stack.pool.query("DELETE FROM social.blocks")
            #expect(try await test.file(.message, message, by: ben).reporters == 1)
        }
    }

    @Test func someoneBlockedIsAnsweredAsIfTheBlockerDidNotExistWhileTheBlockerMayReportThem() async throws {
        try await SocialTestStack.with { stack in
            let test = ReportTest(stack)
            let (bully, target) = (try await test.met(), try await test.met())
            try await test.block(target, bully)
            try await Self.expectRefusedAsMissing(test, .user, target, by: bully)
            #expect(try await test.file(.user, bully, by: target).reporters == 1)
        }
    }
}
