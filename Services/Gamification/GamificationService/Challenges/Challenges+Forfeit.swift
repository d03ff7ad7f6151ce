import KindredHandlers
import KindredMessages
import KindredRPC

/// `ForfeitChallenge`: giving up costs half of what completing would have awarded, at most the balance.
extension Challenges {
    /// Ends `user`'s part in `id` as forfeited and deducts the penalty. CHALLENGE_NOT_FOUND when they take no
    /// part in it (or only an unanswered invitation); CHALLENGE_ENDED when their part is decided or past its
    /// last day.
    func forfeit(_ id: ChallengeID, as user: UserID) async throws -> Challenges.Settled {
        let now = clock.now
        let settled = try await database.transaction { tx -> Settled in
            guard let challenge = try await ChallengeStore.challenge(id, for: user, lock: true, on: tx),
                let part = challenge.part, part.state != "invited", part.state != "declined"
            else { throw GamificationError.challengeNotFound }
            if challenge.isOver(at: now) { throw GamificationError.challengeEnded }
            let usage = try await ChallengeStore.usage(
                of: user, app: challenge.appID, from: part.firstDay ?? "", to: part.lastDay ?? "",
                limitSeconds: challenge.dailyLimitMinutes * 60, on: tx)
            guard
                let settled = try await settle(
                    challenge, for: user, outcome: "forfeited", minutesUsed: usage.seconds / 60, at: now,
                    in: tx)
            else { throw GamificationError.challengeEnded }
            return settled
        }
        await ring(user, id)
        return settled
    }
}
