import KindredAuth
import KindredHandlers
import KindredMessages
import KindredRPC

/// `InviteToEvent`.
extension Gatherings {
    /// The most people one call invites.
    static let mostInvitees = 100

    /// The organizer of the request's event invites its users, who may then see (and join) it; answers whom
    /// it invited now, in the request's order. Unknown people, people invited already and people with a block
    /// either way with the organizer are left out without saying why. Someone else who may see the event is
    /// NOT_ORGANIZER; anyone else EVENT_NOT_FOUND.
    func invite(_ request: Kindred_Social_V1_InviteToEventRequest, as caller: Caller) async throws -> [String]
    {
        let viewer = try EventViewer(caller)
        let (id, invitees) = try Self.invitation(request)
        let seen = try await visibleEvent(id, for: viewer)
        guard viewer.organizes(seen.event) else { throw SocialError.notOrganizer }
        let known = try await knownPeople(invitees.filter { $0 != viewer.id })
        let invited = try await EventParticipationStore.invite(
            known, to: id, organizer: viewer.id, at: clock.now, on: database)
        return invitees.filter(invited.contains).map(\.description)
    }

    /// The event id and the distinct user ids (in order) of `request`, or INVALID_ARGUMENT
    /// naming every bad field.
    private static func invitation(_ request: Kindred_Social_V1_InviteToEventRequest) throws(RPCError)
        -> (eventID: EventID, userIDs: [UserID])
    {
        var violations = FieldViolations()
        let eventID: EventID? = violations.id("event_id", request.eventID)
        if request.userIds.isEmpty { violations.add("user_ids", "is required") }
        if request.userIds.count > mostInvitees {
            violations.add("user_ids", "must have at most \(mostInvitees) ids")
        }
        let userIDs: [UserID]? = violations.ids("user_ids", request.userIds)
        let (event, invitees) = try violations.throwIfAny(eventID, userIDs)
        var seen = Set<UserID>()
        return (event, invitees.filter { seen.insert($0).inserted })
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
