import Foundation
import KindredHandlers
import KindredMessages
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

@Suite struct CalendarTests {
    @Test func anOwnerCreatesAnEventThatEveryMemberReadsAndItIsRecorded() async throws {
        try await BabyContentFamily.with { home in
            let created = try await home.createEvent()
            #expect(created.name == "Baby shower" && created.timeZone == "Europe/Paris")
            #expect(created.createdByUserID == home.mum.id && created.profileID == home.profile.description)
            let read = try await home.family.getCalendarEvent(
                .init(profileID: home.profile.description, eventID: created.eventID),
                options: home.grandma.bearer
            ).event
            #expect(read == created)
            #expect(try await home.activityKinds() == [.calendarEventAdded])
        }
    }

    @Test func aRetriedCreateReturnsTheFirstEventAndAddsNothing() async throws {
        try await BabyContentFamily.with { home in
            let request = Kindred_Family_V1_CreateCalendarEventRequest(
                requestID: "shower-1", profileID: home.profile.description, event: home.event())
            let first = try await home.family.createCalendarEvent(request, options: home.mum.bearer).event
            let again = try await home.family.createCalendarEvent(request, options: home.mum.bearer).event
            #expect(first == again)
            var other = request
            other.event?.name = "Gender reveal"
            let reused = await rpcError {
                try await home.family.createCalendarEvent(other, options: home.mum.bearer)
            }
            #expect(reused?.code == .invalidArgument && reused?.reason == "REQUEST_ID_REUSED")
            #expect(try await home.count("calendar_events") == 1)
            #expect(try await home.activityKinds() == [.calendarEventAdded])
        }
    }

    @Test func everyBadFieldOfAnEventIsNamedInOneAnswer() async throws {
        try await BabyContentFamily.with { home in
            let bad = Kindred_Family_V1_CalendarEvent(
                name: "  ", timeZone: "Mars/Olympus_Mons", description: String(repeating: "a", count: 501),
                photoID: "not-an-id", videoCallURL: "http://meet.example.com/x", location: "Garden\u{7}")
            let refused = await rpcError {
                try await home.family.createCalendarEvent(
                    .init(requestID: "", profileID: home.profile.description, event: bad),
                    options: home.mum.bearer)
            }
            #expect(refused?.code == .invalidArgument)
            #expect(
                refused?.badFields == [
                    "request_id", "event.name", "event.start_time", "event.time_zone", "event.description",
                    "event.photo_id", "event.video_call_url", "event.location",
                ])
            let zone = "Time zone must be an IANA time zone name, such as Europe/Paris."
            #expect(refused?.badFieldDescriptions.contains(zone) == true)
            let stored = try await home.count("calendar_events")
            #expect(stored == 0)
        }
    }

    @Test func anUpdateChangesOnlyTheMaskedFields() async throws {
        try await BabyContentFamily.with { home in
            let created = try await home.createEvent()
            let updated = try await home.family.updateCalendarEvent(
                .init(
                    profileID: home.profile.description, eventID: created.eventID,
                    updateMask: ["name", "time_zone"],
                    event: .init(
                        name: "Baby shower at noon", timeZone: "America/New_York", location: "ignored")),
                options: home.mum.bearer
            ).event
            #expect(updated?.name == "Baby shower at noon" && updated?.timeZone == "America/New_York")
            #expect(updated?.location == created.location && updated?.startTime == created.startTime)
            let unknown = await rpcError {
                try await home.family.updateCalendarEvent(
                    .init(
                        profileID: home.profile.description, eventID: created.eventID, updateMask: ["colour"]),
                    options: home.mum.bearer)
            }
            #expect(unknown?.badFields == ["update_mask"])
        }
    }

    @Test func aFollowerIsRefusedTheOwnersActionsAndNothingChanges() async throws {
        try await BabyContentFamily.with { home in
            let created = try await home.createEvent()
            let profile = home.profile.description
            let refusals = [
                await rpcError {
                    try await home.family.createCalendarEvent(
                        .init(requestID: "g-1", profileID: profile, event: home.event("Tea")),
                        options: home.grandma.bearer)
                },
                await rpcError {
                    try await home.family.updateCalendarEvent(
                        .init(
                            profileID: profile, eventID: created.eventID, updateMask: ["name"],
                            event: .init(name: "Grandma's party")), options: home.grandma.bearer)
                },
                await rpcError {
                    try await home.family.deleteCalendarEvent(
                        .init(profileID: profile, eventID: created.eventID), options: home.grandma.bearer)
                },
                await rpcError {
                    try await home.family.listRsvps(
                        .init(profileID: profile, eventID: created.eventID), options: home.grandma.bearer)
                },
            ]
            for refused in refusals {
                #expect(refused?.code == .permissionDenied && refused?.reason == "BABY_PROFILE_OWNERS_ONLY")
            }
            let after = try await home.family.getCalendarEvent(
                .init(profileID: profile, eventID: created.eventID), options: home.mum.bearer
            ).event
            #expect(after == created)
            #expect(try await home.count("calendar_events") == 1)
        }
    }

    @Test func deletingAnEventTakesItsRsvpsAndCommentsWithIt() async throws {
        try await BabyContentFamily.with { home in
            let created = try await home.createEvent()
            let profile = home.profile.description
            _ = try await home.family.setRsvp(
                .init(profileID: profile, eventID: created.eventID, answer: .attending),
                options: home.grandma.bearer)
            _ = try await home.family.addComment(
                .init(
                    requestID: "c-1",
                    target: .init(profileID: profile, target: .calendarEventID(created.eventID)),
                    text: "Can't wait!"), options: home.grandma.bearer)
            _ = try await home.family.deleteCalendarEvent(
                .init(profileID: profile, eventID: created.eventID), options: home.mum.bearer)
            let gone = await rpcError {
                try await home.family.getCalendarEvent(
                    .init(profileID: profile, eventID: created.eventID), options: home.mum.bearer)
            }
            #expect(gone?.code == .notFound && gone?.reason == "CALENDAR_EVENT_NOT_FOUND")
            #expect(try await home.count("calendar_rsvps") == 0)
            #expect(try await home.count("baby_comments") == 0)
        }
    }

    @Test func listsPageByStartTimeWithinTheRangeAndSpanEveryProfileOfTheCaller() async throws {
        try await BabyContentFamily.with { home in
            let other = try await home.stack.babyProfile(ownedBy: home.grandpa, followers: [home.grandma])
            var names: [String] = []
            for day in [3, 1, 2] {
                var event = home.event("Day \(day)")
                event.startTime =
                    home.stack.clock.now.addingTimeInterval(Double(day) * 86_400)
                let owner = day == 2 ? home.grandpa : home.mum
                let profile = day == 2 ? other : home.profile
                _ = try await home.family.createCalendarEvent(
                    .init(requestID: "day-\(day)", profileID: profile.description, event: event),
                    options: owner.bearer)
                names.append("Day \(day)")
            }
            var seen: [String] = []
            var token = ""
            repeat {
                let page = try await home.family.listCalendarEvents(
                    .init(page: .init(pageSize: 2, pageToken: token)), options: home.grandma.bearer)
                seen += page.events.map(\.name)
                token = page.page?.nextPageToken ?? ""
            } while !token.isEmpty
            #expect(seen == ["Day 1", "Day 2", "Day 3"])
            let mine = try await home.family.listCalendarEvents(
                .init(
                    profileID: home.profile.description,
                    startFrom:
                        home.stack.clock.now.addingTimeInterval(2 * 86_400)),
                options: home.mum.bearer)
            #expect(mine.events.map(\.name) == ["Day 3"])
            let mumSees = try await home.family.listCalendarEvents(.init(), options: home.mum.bearer)
            #expect(mumSees.events.map(\.name) == ["Day 1", "Day 3"])
        }
    }
}
