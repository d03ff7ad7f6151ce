@testable import FamilyService
import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// Social events about a minor, applied as the consumer applies them (addressed by hand here; asking
/// identity is tested on the stack): who is alerted, how, and only once.
@Suite struct GuardianAlertTests {
    static let startsAt = TestClock.parse("2054-12-05T18:30:00Z")

    static func event(_ cursor: Int64, _ payload: Kindred_Social_V1_Event.OneOf_Payload?, type: String)
        -> Kindred_Social_V1_Event
    {
        Kindred_Social_V1_Event(
            cursor: cursor, type: type, occurredAt: Date(), payload: payload)
    }

    static func newContact(_ minor: String, cursor: Int64 = 1) -> Kindred_Social_V1_Event {
        event(
            cursor,
            .messageNewContact(
                .init(
                    minorUserID: minor, senderUserID: NoticeDesk.user().description, senderUsername: "sam_k")),
            type: "message.new_contact")
    }

    static func joined(_ minor: String, cursor: Int64 = 2) -> Kindred_Social_V1_Event {
        event(
            cursor,
            .eventJoined(
                .init(
                    minorUserID: minor, eventID: NoticeDesk.user().description,
                    title: "Robotics club open day",
                    place: "Town library",
                    startsAt: startsAt)),
            type: "event.joined")
    }

    static func reported(_ minor: String, cursor: Int64 = 3) -> Kindred_Social_V1_Event {
        event(
            cursor,
            .contentReported(
                .init(
                    minorUserID: minor, contentKind: .media, contentID: NoticeDesk.user().description,
                    reason: "bullying",
                    reportCount: 3)),
            type: "content.reported")
    }

    /// A family with a minor and two guardians, the second with activity alerts off, and a stranger.
    struct Family {
        let minor = NoticeDesk.user()
        let guardian = NoticeDesk.user()
        let quietGuardian = NoticeDesk.user()
        let stranger = NoticeDesk.user()

        func addressed(_ event: Kindred_Social_V1_Event) -> AddressedAlert {
            AddressedAlert(
                cursor: event.cursor, alert: GuardianAlert(event, receivedAt: Date()), minorName: "mia_r",
                emails: [
                    guardian: "guardian@example.com", quietGuardian: "quiet@example.com",
                    stranger: "x@example.com",
                ])
        }
    }

    /// Applies `events` in one transaction each, as the consumer does, with `family` linked and set up.
    static func apply(_ events: [Kindred_Social_V1_Event], to family: Family, _ desk: NoticeDesk) async throws
    {
        let alerts = GuardianAlerts(context: desk.context)
        for event in events {
            try await desk.pool.transaction { tx in try await alerts.apply(family.addressed(event), in: tx) }
        }
    }

    static func withFamily(_ body: (Family, NoticeDesk) async throws -> Void) async throws {
        try await FamilyTestDatabase.withDatabase { pool in
            let desk = try NoticeDesk(pool)
            let family = Family()
            try await desk.link(guardian: family.guardian, to: family.minor)
            try await desk.link(guardian: family.quietGuardian, to: family.minor)
            _ = try await Notifications(context: desk.context).updateSettings(
                .init(activityAlerts: false, weeklySummary: true), of: family.quietGuardian)
            try await body(family, desk)
        }
    }

    static func inbox(of user: UserID, _ desk: NoticeDesk) async throws -> [Kindred_Family_V1_Notification] {
        try await Notifications(context: desk.context).list(
            for: user, page: try InboxPage(.init(unreadOnly: false, page: nil))
        ).notifications.reversed()
    }

    @Test func aNewContactAlertsTheGuardiansWhoWantActivityAlertsByMailAndInApp() async throws {
        try await Self.withFamily { family, desk in
            try await Self.apply([Self.newContact(family.minor.description)], to: family, desk)
            let notices = try await Self.inbox(of: family.guardian, desk)
            #expect(notices.map(\.kind) == [.minorNewContact])
            #expect(notices.first?.subjectUserID == family.minor.description)
            #expect(notices.first?.body.contains("@sam_k") == true)
            let mails = try await desk.mailbox.all()
            #expect(mails.map(\.to) == ["guardian@example.com"])
            #expect(mails.first?.kind == "guardian_new_contact")
            #expect(mails.first?.subject == "mia_r has a new contact on Kindred")
            #expect(try await Self.inbox(of: family.quietGuardian, desk).isEmpty)
            #expect(try await Self.inbox(of: family.stranger, desk).isEmpty)
        }
    }

    @Test func aPublicEventJoinedIsMailedWithItsTitlePlaceAndTime() async throws {
        try await Self.withFamily { family, desk in
            try await Self.apply([Self.joined(family.minor.description)], to: family, desk)
            #expect(try await Self.inbox(of: family.guardian, desk).map(\.kind) == [.minorJoinedPublicEvent])
            let mails = try await desk.mailbox.all()
            #expect(mails.map(\.to) == ["guardian@example.com"])
            let body = try #require(mails.first?.body)
            #expect(body.contains("Event: Robotics club open day"))
            #expect(body.contains("Place: Town library"))
            #expect(body.contains("Time:  2054-12-05 18:30 UTC"))
            #expect(try await Self.inbox(of: family.quietGuardian, desk).isEmpty)
        }
    }

    @Test func reportedContentReachesEveryGuardianWhateverTheirSettings() async throws {
        try await Self.withFamily { family, desk in
            try await Self.apply([Self.reported(family.minor.description)], to: family, desk)
            for guardian in [family.guardian, family.quietGuardian] {
                let notices = try await Self.inbox(of: guardian, desk)
                #expect(notices.map(\.kind) == [.minorContentReported])
                #expect(notices.first?.title == "Safety alert: mia_r's content was reported")
            }
            let mails = try await desk.mailbox.all()
            #expect(Set(mails.map(\.to)) == ["guardian@example.com", "quiet@example.com"])
            #expect(
                mails.allSatisfy { $0.kind == "guardian_content_reported" && $0.body.contains("bullying") })
            #expect(try await Self.inbox(of: family.stranger, desk).isEmpty)
        }
    }

    @Test func anEventHandledAgainChangesNothing() async throws {
        try await Self.withFamily { family, desk in
            let events = [Self.newContact(family.minor.description), Self.reported(family.minor.description)]
            try await Self.apply(events + events, to: family, desk)
            #expect(try await Self.inbox(of: family.guardian, desk).count == 2)
            #expect(try await Self.inbox(of: family.quietGuardian, desk).count == 1)
            #expect(try await desk.mailbox.all().count == 3)
            #expect(try await desk.count("SELECT count(*)::int FROM family.minor_activity") == 2)
        }
    }

    @Test func theMinorsActivityIsRecordedEvenWhenNobodyIsAlerted() async throws {
        try await Self.withFamily { family, desk in
            let unguarded = Family()
            try await Self.apply([Self.joined(unguarded.minor.description)], to: unguarded, desk)
            #expect(try await desk.mailbox.all().isEmpty)
            #expect(
                try await desk.count(
                    "SELECT count(*)::int FROM family.minor_activity WHERE minor_id = \(unguarded.minor)::uuid"
                ) == 1)
        }
    }

    @Test(arguments: [
        Self.event(9, nil, type: "message.deleted"),
        Self.newContact("not-a-user-id"),
        Self.newContact(""),
    ])
    func anEventNamingNoMinorRaisesNoAlert(event: Kindred_Social_V1_Event) {
        #expect(GuardianAlert(event, receivedAt: Date()) == nil)
    }
}
