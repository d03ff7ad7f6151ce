import KindredHandlers
import KindredMessages

/// `messaging_followed_only`: a minor whose guardian restricted messaging may send only to people they
/// follow, and receive only from people they follow. Family is asked only about a side the rule could
/// refuse (a restricted sender who does not follow the recipient; a minor recipient who does not follow the
/// sender), both at once when both could; adults and followed contacts cost no call.
struct MessagingControls: Sendable {
    let family: FamilyGate

    /// Refuses with `messagingRestricted`, which names no side, when either side's controls forbid the
    /// message. `senderRestricted` is the sender's token's `pc` claim; `relationship` is seen from the sender.
    func requireAllowed(
        from senderID: UserID, senderRestricted: Bool, to recipient: Person, _ relationship: Relationship
    ) async throws {
        async let senderRefuses = senderRestricted && !relationship.follows ? restricts(senderID) : false
        async let recipientRefuses =
            recipient.minor && !relationship.followedBy ? restricts(recipient.id) : false
        let (sender, receiver) = try await (senderRefuses, recipientRefuses)
        if sender || receiver { throw SocialError.messagingRestricted }
    }

    /// Whether `userID`'s guardian restricted their messaging to people they follow, asked afresh.
    private func restricts(_ userID: UserID) async throws -> Bool {
        let controls = try await family.controls(of: userID)
        return controls.active && controls.messagingFollowedOnly
    }
}
