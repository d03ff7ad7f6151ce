import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredRPC

/// An `AnnounceArrivalRequest` or `UpdateArrivalRequest` whose fields were checked: the profile and the
/// announcement's details.
struct ArrivalDraft: Sendable, Equatable {
    let profile: BabyProfileID
    let details: ArrivalDetails

    /// The draft of a request's `profile_id` and `arrival`, a birth date judged at `now`, or INVALID_ARGUMENT
    /// naming every bad field.
    init(profileID: String, arrival: Kindred_Family_V1_BabyArrival?, now: Date) throws(RPCError) {
        var violations = FieldViolations()
        let profile: BabyProfileID? = violations.id("profile_id", profileID)
        let details = ArrivalDetails(arrival, field: "arrival", now: now, &violations)
        (self.profile, self.details) = try violations.throwIfAny(profile, details)
    }
}
