import KindredHandlers
import KindredRPC

/// The refusals of learning points and reward apps.
extension GamificationError {
    /// A child the caller is neither nor guards: word for word what an id nobody has gets.
    static let childNotFound = refusal(.notFound, "CHILD_NOT_FOUND", "No such child.")

    /// The child's own sign-in asked for what only a guardian does: the setup, an unlock, a lock.
    static let guardiansOnly = refusal(
        .permissionDenied, "GUARDIANS_ONLY", "Only a guardian can change this. Ask a guardian in parent mode."
    )

    static let notARewardApp = refusal(
        .failedPrecondition, "NOT_A_REWARD_APP", "This app is not a reward app. A guardian can make it one.")

    static let alreadyUnlocked = refusal(
        .failedPrecondition, "REWARD_APP_ALREADY_UNLOCKED", "This app is unlocked already. Lock it first.")

    /// Fewer points available than the unlock reserves.
    static func notEnoughPoints(available: Int64, needed: Int64) -> RPCError {
        RPCError.refusal(
            .failedPrecondition, "NOT_ENOUGH_POINTS",
            "Not enough points for this many minutes. Earn more in learning apps, or unlock for less time.",
            domain: domain, metadata: ["available_points": "\(available)", "needed_points": "\(needed)"])
    }
}
