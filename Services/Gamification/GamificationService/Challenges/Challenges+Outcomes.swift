import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// How a participant's part ends, in one transaction with everything it moves: the participant's state and
/// leaderboard result, the coins (awarded or deducted under a key per challenge, so the ledger changes once),
/// the badge (one per completion), and the announcements on the user's stream and `WatchEvents`. A part
/// decided already is left as it is, so processing an outcome twice changes nothing the second time.
extension Challenges {
    /// What an outcome moved: the coins it changed (nil when the part was decided already), and the balance.
    struct Settled: Sendable {
        let coins: Int64
        let balance: Int64
    }

    /// Ends `user`'s part in `challenge` with `outcome` ("completed", "failed", "forfeited") inside `tx`, whose
    /// caller locked the part; nil when the part was no longer active.
    func settle(
        _ challenge: StoredChallenge, for user: UserID, outcome: String, minutesUsed: Int64, at now: Date,
        in tx: PostgresTransaction
    ) async throws -> Settled? {
        guard
            try await ChallengeStore.decide(
                user, in: challenge.id, outcome: outcome, minutesUsed: minutesUsed, at: now, in: tx)
        else { return nil }
        let coins: Int64 =
            switch outcome {
            case "completed": challenge.coinAward
            case "forfeited": -challenge.forfeitPenalty
            default: 0
            }
        try await CoinStore.enroll(user, in: tx)
        var settled = Settled(coins: 0, balance: try await CoinStore.balance(of: user, on: tx) ?? 0)
        if coins != 0,
            let applied = try await CoinStore.apply(
                coins, to: user, key: "challenge:\(challenge.id):\(outcome)", reason: outcome,
                challenge: challenge.id, at: now, in: tx)
        {
            settled = Settled(coins: applied.amount, balance: applied.balance)
            try await AchievementStore.announce(
                .coinsChanged(
                    .init(
                        userID: user.description, amount: applied.amount, balance: applied.balance,
                        challengeID: challenge.id.description)),
                type: "coins.changed", to: user, at: now, sealedWith: cipher, in: tx)
        }
        if outcome == "completed" {
            let badge = Kindred_Gamification_V1_Badge(
                kind: challenge.badgeKind, challengeID: challenge.id.description,
                challengeName: challenge.name,
                earnedAt: now)
            if try await BadgeStore.award(badge, to: user, for: challenge.id, in: tx) {
                try await AchievementStore.announce(
                    .badgeEarned(.init(userID: user.description, badge: badge)), type: "badge.earned",
                    to: user,
                    at: now, sealedWith: cipher, in: tx)
            }
        }
        try await AchievementStore.announce(
            .challengeFinished(
                .init(
                    userID: user.description, challengeID: challenge.id.description,
                    challengeName: challenge.name,
                    outcome: ParticipantStates.proto(outcome))),
            type: "challenge.finished", to: user, at: now, sealedWith: cipher, in: tx)
        return settled
    }

    /// Wakes the streams of `user` and of `challenge` once what `settle` wrote committed; a lost wake-up only
    /// delays it to the next, so a failure is logged and not the caller's.
    func ring(_ user: UserID, _ challenge: ChallengeID) async {
        do {
            try await AchievementStore.ring(users: [user], challenges: [challenge], on: database)
        } catch {
            logger.warning("could not wake the achievement streams", metadata: ["error": "\(error)"])
        }
    }
}
