import KindredHandlers
import KindredMessages
import KindredRPC

/// An `InviteToEventRequest` whose fields were checked: the event, and 1 to `mostInvitees` user ids, each
/// named once in the order first given.
struct EventInvitationDraft: Sendable, Equatable {
    /// The most people one call invites.
    static let mostInvitees = 100

    let event: EventID
    let invitees: [UserID]

    /// The draft `request` holds, or INVALID_ARGUMENT naming every bad field.
    init(_ request: Kindred_Social_V1_InviteToEventRequest) throws(RPCError) {
        var violations = FieldViolations()
        let eventID: EventID? = violations.id("event_id", request.eventID)
        if request.userIds.isEmpty { violations.add("user_ids", "is required") }
        if request.userIds.count > Self.mostInvitees {
            violations.add("user_ids", "must have at most \(Self.mostInvitees) ids")
        }
        let userIDs: [UserID]? = violations.ids("user_ids", request.userIds)
        let (event, invitees) = try violations.throwIfAny(eventID, userIDs)
        var seen = Set<UserID>()
        self.event = event
        self.invitees = invitees.filter { seen.insert($0).inserted }
    }
}
