import KindredMessages
import KindredEvents
import KindredTestSupport
@testable import FamilyService
@testable import ServiceTestSupport
import Testing

/// What gamification's counter of events attended reads: each RSVP change's event says the answer now.
@Suite struct RsvpEventTests {
    @Test func eachRsvpChangedEventCarriesTheAnswerItChangedTo() async throws {
        try await BabyContentFamily.with { home in
            let event = try await home.createEvent()
            var request = Kindred_Family_V1_SetRsvpRequest(
                profileID: home.profile.description, eventID: event.eventID)
            for answer in [Kindred_Family_V1_RsvpAnswer.attending, .maybe] {
                request.answer = answer
                _ = try await home.family.setRsvp(request, options: home.grandma.bearer)
            }
            let payloads = try await FamilyEvents.outbox.appended(
                type: "calendar.rsvp_changed", on: home.stack.pool
            )
            .map(\.payload)
            let answers = try payloads.map { bytes -> Kindred_Family_V1_RsvpAnswer? in
                guard
                    case .calendarRsvpChanged(let occurred) = try Kindred_Family_V1_Event(
                        serializedBytes: bytes
                    )
                    .payload
                else { return nil }
                return occurred.rsvpAnswer
            }
            #expect(answers == [.attending, .maybe])
        }
    }
}
