import KindredHandlers
import KindredMessages

/// `SetRsvp`: a follower's answer to an event, which they may change.
extension BabyCalendar {
    /// Sets `follower`'s answer; the same answer again changes nothing and records nothing. Owners are told
    /// of a change through the activity log (the entry's subject is the event).
    func setRsvp(_ draft: RsvpDraft, by follower: UserID) async throws -> Kindred_Family_V1_CalendarEvent {
        let (profileID, eventID) = (draft.profile, draft.event)
        let now = clock.now
        return try await database.transaction { tx in
            guard
                let (author, set) = try await CalendarRsvpStore.set(
                    draft.answer, of: follower, to: eventID, of: profileID, texts: texts, seals: seals,
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
                        detail: stored.details.name, rsvpAnswer: draft.answer),
                    names: author.names, at: now, seals: seals, in: tx)
            }
            return stored.proto
        }
    }
}
