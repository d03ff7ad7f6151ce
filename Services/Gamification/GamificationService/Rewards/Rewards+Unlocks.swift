import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres

/// Unlocking a reward app reserves its minutes' points; locking it (or its end) spends what was used and
/// returns the rest. Both hold the child's `reward_settings` row, so a child's unlocks take turns and each
/// checks the points the one before it left: concurrent unlocks never take available below zero.
extension Rewards {
    static let unlockMinutes: ClosedRange<Int32> = 1...1440
    static let requestIDLength = 1...100

    /// Unlocks `app` for `minutes` as request `requestID`; a retry of a request that unlocked answers the
    /// dashboard as it is now.
    func unlock(_ app: String, of child: UserID, minutes: Int32, requestID: String) async throws
        -> Kindred_Gamification_V1_ChildDashboard
    {
        let now = clock.now
        let after = try await database.transaction { tx -> RewardBalance in
            guard let rates = try await RewardStore.lockRates(of: child, in: tx) else {
                throw GamificationError.notARewardApp
            }
            try await RewardStore.settle(child, app: nil, at: now, sessions: sessions, in: tx)
            if try await RewardStore.unlocked(child, by: requestID, in: tx) {
                return try await balance(of: child, at: now, on: tx)
            }
            let before = try await balance(of: child, at: now, on: tx)
            guard before.apps.contains(where: { $0.app == app && $0.kind == .reward }) else {
                throw GamificationError.notARewardApp
            }
            if before.unlocks.contains(where: { $0.app == app && $0.running }) {
                throw GamificationError.alreadyUnlocked
            }
            let needed = Int64(minutes) * Int64(rates.reward)
            guard before.unreserved >= needed else {
                throw GamificationError.notEnoughPoints(available: max(0, before.unreserved), needed: needed)
            }
            guard
                try await RewardStore.unlock(
                    app, of: child, minutes: minutes, perMinute: rates.reward, requestID: requestID, at: now,
                    in: tx)
            else { throw GamificationError.alreadyUnlocked }
            return try await balance(of: child, at: now, on: tx)
        }
        return after.dashboard(of: child)
    }

    /// Ends the app's unlock, if one runs; a locked app stays as it is.
    func lock(_ app: String, of child: UserID) async throws -> Kindred_Gamification_V1_ChildDashboard {
        let now = clock.now
        let after = try await database.transaction { tx -> RewardBalance in
            if try await RewardStore.lockRates(of: child, in: tx) != nil {
                try await RewardStore.settle(child, app: app, at: now, sessions: sessions, in: tx)
            }
            return try await balance(of: child, at: now, on: tx)
        }
        return after.dashboard(of: child)
    }
}
