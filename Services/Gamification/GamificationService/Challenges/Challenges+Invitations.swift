import KindredHandlers
import KindredMessages
import KindredRPC

/// `InviteToChallenge` and `RespondToChallengeInvitation`: a participant invites friends only; an invitee who
/// accepts takes part from their next local midnight.
extension Challenges {
    /// Invites `invitee` to `id` on behalf of `inviter`, who takes part in it. Inviting someone who has a part
    /// already changes nothing. Refusals, in order: a challenge the inviter takes no part in
    /// (CHALLENGE_NOT_FOUND), a popular one, one over for the inviter, the inviter themselves, and anyone who
    /// is not their friend, existing or not (NOT_FRIENDS, one answer for both).
    func invite(_ invitee: UserID, to id: ChallengeID, by inviter: UserID) async throws {
        async let areFriends = friends.areFriends(inviter, invitee)
        guard let challenge = try await ChallengeStore.challenge(id, for: inviter, on: database),
            challenge.part != nil
        else { throw GamificationError.challengeNotFound }
        if challenge.popular { throw GamificationError.popularNotInvitable }
        if challenge.isOver(at: clock.now) || challenge.part?.state != "active" {
            throw GamificationError.challengeEnded
        }
        if invitee == inviter { throw GamificationError.notYourself }
        guard try await areFriends else { throw GamificationError.notFriends }
        try await ChallengeStore.invite(invitee, to: id, by: inviter, at: clock.now, on: database)
    }

    /// Accepts or declines `user`'s invitation to `id`; answering the same way again returns the challenge as
    /// it is. CHALLENGE_NOT_FOUND without an invitation; INVITATION_ANSWERED when it was answered the other way
    /// or the part is over.
    func respond(to id: ChallengeID, as user: UserID, accept: Bool) async throws -> StoredChallenge {
        let challenge = try await visible(id, to: user)
        guard let part = challenge.part else { throw GamificationError.challengeNotFound }
        switch (part.state, accept) {
        case ("invited", true):
            let now = clock.now
            let accepted = try await database.transaction { tx in
                try await CoinStore.enroll(user, in: tx)
                return try await ChallengeStore.activate(user, in: id, at: now, in: tx)
            }
            if !accepted { throw GamificationError.invitationAnswered }
        case ("invited", false):
            if !(try await ChallengeStore.decline(user, id, at: clock.now, on: database)) {
                throw GamificationError.invitationAnswered
            }
        case ("active", true), ("declined", false):
            return challenge
        default:
            throw GamificationError.invitationAnswered
        }
        return try await visible(id, to: user)
    }
}
