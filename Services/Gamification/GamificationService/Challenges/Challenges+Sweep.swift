import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// The completion sweep: every participant whose last day ended more than the grace period ago is decided
/// from their uploaded usage, completed when every day stayed within the limit, failed otherwise. Each
/// participant is claimed and decided in a transaction of its own (`FOR UPDATE SKIP LOCKED`), so instances
/// sweeping at once share the work and never decide one participant twice, and a sweep that stops halfway
/// leaves the rest to the next.
extension Challenges {
    /// How often each instance sweeps.
    static let sweepInterval: Duration = .seconds(60)

    /// Decides every participant due at the clock's now; answers how many this call decided.
    @discardableResult
    func sweep() async throws -> Int {
        let deadline = clock.now.addingTimeInterval(-Double(Self.gracePeriod.components.seconds))
        var decided = 0
        while let (user, challenge) = try await decideNext(before: deadline) {
            decided += 1
            await ring(user, challenge)
        }
        return decided
    }

    /// Claims and decides one due participant; nil when none is left unclaimed.
    private func decideNext(before deadline: Date) async throws -> (UserID, ChallengeID)? {
        let now = clock.now
        return try await database.transaction { tx in
            guard let due = try await ChallengeStore.claimDue(before: deadline, in: tx),
                let challenge = try await ChallengeStore.challenge(due.challenge, for: due.user, on: tx)
            else { return nil }
            let usage = try await ChallengeStore.usage(
                of: due.user, app: challenge.appID, from: due.firstDay, to: due.lastDay,
                limitSeconds: challenge.dailyLimitMinutes * 60, on: tx)
            _ = try await settle(
                challenge, for: due.user, outcome: usage.daysOver == 0 ? "completed" : "failed",
                minutesUsed: usage.seconds / 60, at: now, in: tx)
            return (due.user, due.challenge)
        }
    }

    /// Sweeps every `sweepInterval` until the task is cancelled (the drain); a failed sweep is logged and
    /// tried again at the next.
    func runSweeps() async {
        while !Task.isCancelled {
            do {
                try await sweep()
            } catch {
                logger.warning("challenge sweep failed", metadata: ["error": "\(error)"])
            }
            try? await Task.sleep(for: Self.sweepInterval)
        }
    }
}
