import KindredHandlers
import KindredMessages

/// `SetRsvp`: a follower's answer to an event, which they may change.
extension BabyCalendar {
    /// Sets `follower`'s answer; the same answer again changes nothing and records nothing. Owners are told
    /// of a change through the activity log (the entry's subject is the event).
    func setRsvp(_ draft: RsvpDraft, by follower: UserID) async throws -> Kindred_Family_V1_CalendarEvent {
        let (profileID, eventID) = (draft.profile, draft.event)
        let now = clock.now
        try await database.transaction { tx in
            let author = try await BabyMembership.holdAuthor(follower, of: profileID, seals: seals, in: tx)
            guard author.role == .follower else {
                throw FamilyError.babyProfileFollowersOnly
            }
            guard let stored = try await CalendarEventStore.hold(eventID, of: profileID, in: tx) else {
                throw FamilyError.calendarEventNotFound
            }
            let name = try texts.open(stored, of: CalendarTexts.Key(profile: profileID, event: eventID))[0]
            guard
                try await CalendarRsvpStore.set(
                    draft.answer, of: follower, to: eventID, of: profileID, at: now, in: tx)
            else { return }
            try await BabyActivityLog.record(
                BabyActivityEntry(
                    profile: profileID, kind: .rsvpChanged, actor: follower, subject: eventID.uuid,
                    detail: name, rsvpAnswer: draft.answer),
                names: author.names, at: now, seals: seals, in: tx)
        }
        return try await read(eventID, of: profileID, by: follower)
    }
}
