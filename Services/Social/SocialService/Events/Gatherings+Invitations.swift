import KindredHandlers
import KindredRPC

/// `InviteToEvent`.
extension Gatherings {
    /// The organizer of the request's event invites its users, who may then see (and join) it; answers whom
    /// it invited now, in the request's order. Unknown people, people invited already and people with a block
    /// either way with the organizer are left out without saying why. Someone else who may see the event is
    /// NOT_ORGANIZER; anyone else EVENT_NOT_FOUND.
    func invite(_ draft: EventInvitationDraft, by viewer: EventViewer) async throws -> [String] {
        let (id, invitees) = (draft.event, draft.invitees)
        let seen = try await visibleEvent(id, for: viewer)
        guard viewer.organizes(seen.event) else { throw SocialError.notOrganizer }
        let known = try await knownPeople(invitees.filter { $0 != viewer.id })
        let invited = try await EventParticipationStore.invite(
            known, to: id, organizer: viewer.id, at: clock.now, on: database)
        return invitees.filter(invited.contains).map(\.description)
    }

    /// Those of `userIDs` the people directory finds, asked at once; the others are left out.
    private func knownPeople(_ userIDs: [UserID]) async throws -> [UserID] {
        try await withThrowingTaskGroup(of: UserID?.self) { group in
            for userID in userIDs {
                group.addTask {
                    do {
                        return try await people.person(userID).id
                    } catch let error as RPCError where error.code == .notFound {
                        return nil
                    }
                }
            }
            var known: [UserID] = []
            for try await found in group { if let found { known.append(found) } }
            return known
        }
    }
}
