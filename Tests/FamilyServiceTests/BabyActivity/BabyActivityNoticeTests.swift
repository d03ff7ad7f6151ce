@testable import FamilyService
import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredEvents
import KindredPostgres
import KindredTestSupport
@testable import ServiceTestSupport
import Testing

/// What recording an entry causes: notices for the members its kind concerns (never the actor, never one who
/// switched the kind off), in-app and push, and the events other services count.
@Suite struct BabyActivityNoticeTests {
    @Test func ownersHearOfAFollowersCommentAndTheFollowerDoesNot() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let dad = try await stack.register("dad", age: 31)
            let grandma = try await stack.register("grandma", age: 70)
            let grandpa = try await stack.register("grandpa", age: 72)
            try await stack.name(mum, first: "Ann", last: "Lopez")
            try await stack.name(grandma, display: "Grandma Rose")
            let profile = try await stack.babyProfile(
                ownedBy: mum, coOwner: dad, followers: [grandma, grandpa])
            let device = try await stack.family.registerPushDevice(
                .init(platform: .apns, deviceToken: "mum-phone", pushEnabled: true), options: mum.bearer)

            try await stack.record(.commentAdded, on: profile, by: grandma, detail: "So exciting!")

            for owner in [mum, dad] {
                let notices = try await stack.notices(of: owner)
                #expect(notices.map(\.kind) == [Int(Kindred_Family_V1_NotificationKind.babyComment.rawValue)])
                #expect(notices.first?.title == "Baby Lopez")
                #expect(notices.first?.body == "Grandma Rose commented: So exciting!")
            }
            #expect(try await stack.notices(of: grandma).isEmpty)
            #expect(try await stack.notices(of: grandpa).isEmpty)
            let pushed = try await stack.pool.query(
                """
                SELECT kind::int, title, body, text_sealed FROM family.push_outbox
                WHERE device_id = \(try #require(device.device).deviceID)::uuid
                """
            ).map { try openedNotice($0).body }
            #expect(pushed == ["Grandma Rose commented: So exciting!"])
            let listed = try await stack.family.listNotifications(.init(), options: dad.bearer)
            #expect(listed.notifications.map(\.kind) == [.babyComment])
        }
    }

    @Test(arguments: [
        (BabyActivityKind.memberJoined, true, Kindred_Family_V1_NotificationKind.babyMemberJoined),
        (.rsvpChanged, true, .babyRsvp), (.commentAdded, true, .babyComment),
        (.registryItemPurchased, true, .babyPurchase), (.calendarEventAdded, false, .babyCalendarEvent),
        (.registryItemAdded, false, .babyRegistryItem), (.photoSquished, true, .babySquish),
        (.arrivalSquished, true, .babySquish), (.babyArrived, false, .babyArrived),
        (.photoAdded, false, .babyPhoto),
    ])
    func eachKindReachesItsAudienceButTheActor(
        kind: BabyActivityKind, toOwnersOnly: Bool, notified: Kindred_Family_V1_NotificationKind
    ) async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let dad = try await stack.register("dad", age: 31)
            let grandma = try await stack.register("grandma", age: 70)
            let grandpa = try await stack.register("grandpa", age: 72)
            let profile = try await stack.babyProfile(
                ownedBy: mum, coOwner: dad, followers: [grandma, grandpa])
            // The actor is one of the audience, which must leave them out: dad, an owner, acts; what owners
            // alone hear of reaches mum only, new content every member but dad.
            try await stack.record(kind, on: profile, by: dad, detail: "it")
            let told = toOwnersOnly ? [mum.id] : [mum.id, grandma.id, grandpa.id]
            for member in [mum, dad, grandma, grandpa] {
                let expected = told.contains(member.id) ? [Int(notified.rawValue)] : []
                #expect(try await stack.notices(of: member).map(\.kind) == expected, "\(member.username)")
            }
        }
    }

    @Test func theCoOwnerAndTheFollowersHearOfANewEventItemAndPhotoAndTheActorDoesNot() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let dad = try await stack.register("dad", age: 31)
            let grandma = try await stack.register("grandma", age: 70)
            let profile = try await stack.babyProfile(
                ownedBy: mum, coOwner: dad, followers: [grandma], name: "Lily")
            try await stack.name(mum, display: "Ann")
            let device = try await stack.family.registerPushDevice(
                .init(platform: .fcm, deviceToken: "dad-phone", pushEnabled: true), options: dad.bearer)
            try await stack.record(.calendarEventAdded, on: profile, by: mum, detail: "Baby shower")
            try await stack.record(.registryItemAdded, on: profile, by: mum, detail: "Stroller")
            try await stack.record(.photoAdded, on: profile, by: mum, detail: "")

            let expected = [
                "New on the calendar: Baby shower", "New in the registry: Stroller", "Ann added a photo.",
            ]
            for member in [dad, grandma] {
                #expect(try await stack.notices(of: member).map(\.body) == expected, "\(member.username)")
                #expect(try await stack.notices(of: member).map(\.title) == ["Lily", "Lily", "Lily"])
            }
            #expect(try await stack.notices(of: mum).isEmpty)
            let pushed = try await stack.pool.query(
                "SELECT kind::int FROM family.push_outbox WHERE device_id = \(try #require(device.device).deviceID)::uuid ORDER BY id"
            ).map { try $0.decode(Int.self, column: 0) }
            #expect(
                pushed
                    == [Kindred_Family_V1_NotificationKind.babyCalendarEvent, .babyRegistryItem, .babyPhoto]
                    .map {
                        Int($0.rawValue)
                    })
        }
    }

    @Test func aCoOwnerWhoMutedTheCalendarHearsOfTheRegistryButNotTheCalendar() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let dad = try await stack.register("dad", age: 31)
            let profile = try await stack.babyProfile(ownedBy: mum, coOwner: dad)
            _ = try await stack.family.updateNotificationSettings(
                .init(
                    settings: .init(
                        activityAlerts: true, weeklySummary: true, mutedKinds: [.babyCalendarEvent])),
                options: dad.bearer)
            try await stack.record(.calendarEventAdded, on: profile, by: mum, detail: "Scan")
            try await stack.record(.registryItemAdded, on: profile, by: mum, detail: "Crib")
            #expect(try await stack.notices(of: dad).map(\.body) == ["New in the registry: Crib"])
        }
    }

    @Test func aKindSwitchedOffIsNotNotifiedAndTheOthersStillAre() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let grandma = try await stack.register("grandma", age: 70)
            let grandpa = try await stack.register("grandpa", age: 72)
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma, grandpa])
            let saved = try await stack.family.updateNotificationSettings(
                .init(
                    settings: .init(
                        activityAlerts: true, weeklySummary: true,
                        mutedKinds: [.babyCalendarEvent, .babyCalendarEvent])),
                options: grandma.bearer)
            #expect(saved.settings?.mutedKinds == [.babyCalendarEvent])
            let read = try await stack.family.getNotificationSettings(.init(), options: grandma.bearer)
            #expect(read.settings?.mutedKinds == [.babyCalendarEvent])

            try await stack.record(.calendarEventAdded, on: profile, by: mum, detail: "Scan")
            try await stack.record(.registryItemAdded, on: profile, by: mum, detail: "Crib")

            #expect(try await stack.notices(of: grandma).map(\.body) == ["New in the registry: Crib"])
            #expect(
                try await stack.notices(of: grandpa).map(\.body) == [
                    "New on the calendar: Scan", "New in the registry: Crib",
                ])
        }
    }

    @Test func onlyBabyProfileKindsCanBeSwitchedOff() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let refused = await rpcError {
                try await stack.family.updateNotificationSettings(
                    .init(
                        settings: .init(activityAlerts: true, weeklySummary: true, mutedKinds: [.cameOfAge])),
                    options: mum.bearer)
            }
            #expect(refused?.code == .invalidArgument)
            #expect(refused?.badFields == ["settings.muted_kinds[0]"])
        }
    }

    @Test func anRSVPAPurchaseAndACommentAreEventsOnWatchEvents() async throws {
        try await FamilyTestStack.with { stack in
            let mum = try await stack.register("mum", age: 30)
            let grandma = try await stack.register("grandma", age: 70)
            let profile = try await stack.babyProfile(ownedBy: mum, followers: [grandma])
            let item = UUID()
            try await stack.record(.calendarEventAdded, on: profile, by: mum, detail: "Shower")
            try await stack.record(.rsvpChanged, on: profile, by: grandma, detail: "Shower")
            try await stack.record(
                .registryItemPurchased, on: profile, by: grandma, detail: "Crib", subject: item)
            try await stack.record(.commentAdded, on: profile, by: grandma, detail: "Hi")

            let events = try await FamilyEvents.outbox.appended(on: stack.pool)
            #expect(events.map(\.0) == ["calendar.rsvp_changed", "registry.purchased", "comment.added"])
            let purchase = try Kindred_Family_V1_Event(serializedBytes: events[1].1)
            guard case .registryPurchased(let occurred) = purchase.payload else {
                Issue.record("not a purchase: \(purchase)")
                return
            }
            #expect(occurred.profileID == profile.description)
            #expect(occurred.actorID == grandma.id)
            #expect(occurred.subjectID == item.uuidString.lowercased())
        }
    }
}
