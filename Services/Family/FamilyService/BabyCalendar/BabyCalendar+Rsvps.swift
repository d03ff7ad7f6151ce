import KindredHandlers
import KindredMessages

/// `SetRsvp`: a follower's answer to an event, which they may change.
extension BabyCalendar {
    /// Sets `follower`'s answer; the same answer again changes nothing and records nothing. Owners are told
    /// of a change through the activity log (the entry's subject is the event).
    func setRsvp(_ request: Kindred_Family_V1_SetRsvpRequest, by follower: UserID) async throws
        -> Kindred_Family_V1_CalendarEvent
    {
        var violations = FieldViolations()
        let profile: BabyProfileID? = violations.id("profile_id", request.profileID)
        let event: CalendarEventID? = violations.id("event_id", request.eventID)
        switch request.answer {
        case .attending, .notAttending, .maybe: break
        case .unspecified, .unrecognized:
            violations.add("answer", "must be attending, not attending or maybe")
        }
        let (profileID, eventID) = try violations.throwIfAny(profile, event)
        let now = clock.now
        return try await database.transaction { tx in
            guard
                let (author, set) = try await CalendarRsvpStore.set(
                    request.answer, of: follower, to: eventID, of: profileID, texts: texts, seals: seals,
                    at: now,
                    in: tx)
            else { throw FamilyError.babyProfileNotFound }
            guard author.role == .follower else {
                throw FamilyError.babyProfileFollowersOnly
            }
            guard let (stored, changed) = set else {
                throw FamilyError.calendarEventNotFound
            }
            if changed {
                try await BabyActivityLog.record(
                    BabyActivityEntry(
                        profile: profileID, kind: .rsvpChanged, actor: follower, subject: eventID.uuid,
                        detail: stored.details.name, rsvpAnswer: request.answer),
                    names: author.names, at: now, seals: seals, in: tx)
            }
            return stored.proto
        }
    }
}
