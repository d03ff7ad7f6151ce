import KindredHandlers
import KindredMessages
import KindredRPC

/// A `SetRsvpRequest` whose fields were checked: the profile, its event, and one of the three answers.
struct RsvpDraft: Sendable, Equatable {
    let profile: BabyProfileID
    let event: CalendarEventID
    let answer: Kindred_Family_V1_RsvpAnswer

    /// The draft `request` holds, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Family_V1_SetRsvpRequest) throws(RPCError) {
        var violations = FieldViolations()
        let profile: BabyProfileID? = violations.id("profile_id", request.profileID)
        let event: CalendarEventID? = violations.id("event_id", request.eventID)
        switch request.answer {
        case .attending, .notAttending, .maybe: break
        case .unspecified, .unrecognized:
            violations.add("answer", "must be attending, not attending or maybe")
        }
        (self.profile, self.event) = try violations.throwIfAny(profile, event)
        answer = request.answer
    }
}
