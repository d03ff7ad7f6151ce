@testable import FamilyService
import FoundationEssentials
import KindredHandlers
import KindredAPI
import KindredMessages
import KindredPostgres
import KindredRPC
import KindredRuntime
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Family's consumer of social's `WatchEvents`, against social's skeleton served for real: events inserted in
/// social's outbox become guardian alerts, with emails identity gives, once however many instances consume.
@Suite struct SocialEventsTests {
    /// A minor, their guardian, linked; and the guardian's mails once `count` have arrived.
    static func waitForMails(_ count: Int, to address: String, _ stack: FamilyTestStack) async throws
        -> [TestMailbox.Mail]
    {
        try await eventually("\(address) gets \(count) mails") {
            try await stack.familyMail.mail(to: address).count >= count
        }
        return try await stack.familyMail.mail(to: address)
    }

    @Test func eventsInSocialsOutboxBecomeGuardianAlertsOnceWithTwoInstancesConsuming() async throws {
        try await FamilyTestStack.with { stack in
            try await SocialTestServer.with(stack) { social in
                let mia = try await stack.register("mia_s", age: 15)
                let dad = try await stack.register("dad_s", age: 41)
                try await NoticeDesk(stack.pool).link(guardian: UserID(dad.id)!, to: UserID(mia.id)!)
                let secondPool = PostgresPool(
                    configuration: stack.pool.configuration, logger: FamilyTestDatabase.logger)
                let second = stack.context.onAnotherInstance(secondPool)
                let consumers = try [stack.context, second].map { context in
                    let consumer = try GuardianAlerts(context: context).consumer(socialTarget: social.target)
                    return Task { await consumer.run() }
                }
                try await social.append(
                    "message.new_contact",
                    .messageNewContact(.init(minorUserID: mia.id, senderUsername: "sam_k")))
                try await social.append(
                    "event.joined",
                    .eventJoined(.init(minorUserID: mia.id, title: "Chess in the park", place: "Park")))
                try await social.append(
                    "content.reported",
                    .contentReported(.init(minorUserID: mia.id, contentKind: .message, reportCount: 1)))

                let mails = try await Self.waitForMails(3, to: dad.email, stack)
                #expect(
                    mails.map(\.kind) == [
                        "guardian_new_contact", "guardian_event_joined", "guardian_content_reported",
                    ])
                #expect(mails.allSatisfy { $0.subject.contains("mia_s") })
                try await consistently("no event is mailed twice") {
                    try await stack.familyMail.all().count == 3
                }
                let cursor = try await stack.pool.query(
                    "SELECT cursor FROM family.event_cursors WHERE source = 'social'")[0].decode(
                        Int64.self, column: 0)
                #expect(cursor == 3)
                let inbox = try await stack.family.listNotifications(.init(), options: dad.bearer)
                #expect(
                    inbox.notifications.map(\.kind) == [
                        .minorContentReported, .minorJoinedPublicEvent, .minorNewContact,
                    ])
                consumers.forEach { $0.cancel() }
                for consumer in consumers { await consumer.value }
                await secondPool.close()
            }
        }
    }

    @Test func addressingAnEventAsksIdentityForTheGuardiansEmailsAndTheMinorsName() async throws {
        try await FamilyTestStack.with { stack in
            let mia = try await stack.register("mia_a", age: 14)
            let mum = try await stack.register("mum_a", age: 39)
            let (miaID, mumID) = (try #require(UserID(mia.id)), try #require(UserID(mum.id)))
            let desk = try NoticeDesk(stack.pool)
            try await desk.link(guardian: mumID, to: miaID)
            let gone = NoticeDesk.user()
            try await desk.link(guardian: gone, to: miaID)
            let event = GuardianAlertTests.newContact(mia.id)
            let addressed = try await GuardianAlerts(context: stack.context).address(event)
            #expect(addressed.cursor == event.cursor && addressed.alert != nil)
            #expect(addressed.minorName == "mia_a")
            #expect(addressed.emails == [mumID: mum.email])
        }
    }

    @Test func socialServesItsEventsToServicesOnly() async throws {
        try await FamilyTestStack.with { stack in
            try await SocialTestServer.with(stack) { social in
                let client = Kindred_Social_V1_SocialService.Client(try RPCClient(target: social.target))
                let user = try await stack.register("ann_s", age: 30)
                let refused = await rpcError {
                    for try await _ in client.watchEvents(.init(), options: user.bearer) {}
                }
                #expect(refused?.code == .permissionDenied)
                let negative = await rpcError {
                    for try await _ in client.watchEvents(
                        .init(afterCursor: -1), options: try await stack.serviceBearer())
                    {}
                }
                #expect(negative?.code == .invalidArgument)
                try await social.append(
                    "event.joined", .eventJoined(.init(minorUserID: user.id, title: "Quiz")))
                var received: [Kindred_Social_V1_Event] = []
                for try await event in client.watchEvents(.init(), options: try await stack.serviceBearer()) {
                    received.append(event)
                    break
                }
                #expect(received.map(\.cursor) == [1] && received.map(\.type) == ["event.joined"])
                #expect(received.first?.occurredAt != nil)
            }
        }
    }
}
