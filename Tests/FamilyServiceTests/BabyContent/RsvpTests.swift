import Foundation
import KindredHandlers
import KindredMessages
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

@Suite struct RsvpTests {
    @Test func aFollowerChangesTheirAnswerAndTheCountsFollow() async throws {
        try await BabyContentFamily.with { home in
            let event = try await home.createEvent()
            let ids = Kindred_Family_V1_SetRsvpRequest(
                profileID: home.profile.description, eventID: event.eventID)
            var answer = ids
            answer.answer = .maybe
            var shown = try await home.family.setRsvp(answer, options: home.grandma.bearer).event
            #expect(shown?.myRsvp == .maybe && shown?.rsvpCounts == .init(maybe: 1))
            answer.answer = .attending
            shown = try await home.family.setRsvp(answer, options: home.grandma.bearer).event
            #expect(shown?.myRsvp == .attending && shown?.rsvpCounts == .init(attending: 1))
            // The same answer again changes nothing and records nothing.
            shown = try await home.family.setRsvp(answer, options: home.grandma.bearer).event
            #expect(shown?.myRsvp == .attending && shown?.rsvpCounts == .init(attending: 1))
            var grandpa = ids
            grandpa.answer = .notAttending
            // The answer shows the others' answers with the caller's own.
            shown = try await home.family.setRsvp(grandpa, options: home.grandpa.bearer).event
            #expect(
                shown?.myRsvp == .notAttending && shown?.rsvpCounts == .init(attending: 1, notAttending: 1))
            let mumSees = try await home.family.getCalendarEvent(
                .init(profileID: home.profile.description, eventID: event.eventID), options: home.mum.bearer
            ).event
            #expect(
                mumSees?.rsvpCounts == .init(attending: 1, notAttending: 1) && mumSees?.myRsvp == .unspecified
            )
            // A list counts everyone's answers and shows each reader their own.
            let readers: [(TestUser, Kindred_Family_V1_RsvpAnswer)] = [
                (home.grandma, .attending), (home.grandpa, .notAttending), (home.mum, .unspecified),
            ]
            for (reader, own) in readers {
                let listed = try await home.family.listCalendarEvents(
                    .init(profileID: home.profile.description), options: reader.bearer
                ).events
                #expect(listed.map(\.myRsvp) == [own])
                #expect(listed.map(\.rsvpCounts) == [.init(attending: 1, notAttending: 1)])
            }
            var answers: [String] = []
            var token = ""
            repeat {
                let page = try await home.family.listRsvps(
                    .init(
                        profileID: home.profile.description, eventID: event.eventID,
                        page: .init(pageSize: 1, pageToken: token)), options: home.mum.bearer)
                answers += page.rsvps.map { "\($0.userID) \($0.answer)" }
                token = page.page?.nextPageToken ?? ""
            } while !token.isEmpty
            #expect(
                Set(answers) == ["\(home.grandma.id) attending", "\(home.grandpa.id) notAttending"]
                    && answers.count == 2)
            #expect(
                try await home.activityKinds() == [
                    .calendarEventAdded, .rsvpChanged, .rsvpChanged, .rsvpChanged,
                ])
        }
    }

    @Test func anOwnerDoesNotRsvpAndAnAnswerMustBeOneOfTheThree() async throws {
        try await BabyContentFamily.with { home in
            let event = try await home.createEvent()
            let owner = await rpcError {
                try await home.family.setRsvp(
                    .init(profileID: home.profile.description, eventID: event.eventID, answer: .attending),
                    options: home.mum.bearer)
            }
            #expect(owner?.code == .permissionDenied && owner?.reason == "BABY_PROFILE_FOLLOWERS_ONLY")
            let unanswered = await rpcError {
                try await home.family.setRsvp(
                    .init(profileID: home.profile.description, eventID: "nope"), options: home.grandma.bearer)
            }
            #expect(unanswered?.badFields == ["event_id", "answer"])
            #expect(try await home.count("calendar_rsvps") == 0)
        }
    }

    @Test func anEventOfAnotherProfileIsNotFoundThroughThisOne() async throws {
        try await BabyContentFamily.with { home in
            let elsewhere = try await home.stack.babyProfile(ownedBy: home.grandpa, followers: [home.grandma])
            let theirs = try await home.family.createCalendarEvent(
                .init(requestID: "e", profileID: elsewhere.description, event: home.event()),
                options: home.grandpa.bearer
            ).event!
            let refused = await rpcError {
                try await home.family.setRsvp(
                    .init(profileID: home.profile.description, eventID: theirs.eventID, answer: .maybe),
                    options: home.grandma.bearer)
            }
            #expect(refused?.code == .notFound && refused?.reason == "CALENDAR_EVENT_NOT_FOUND")
            #expect(try await home.count("calendar_rsvps") == 0)
        }
    }
}
