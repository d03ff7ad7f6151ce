import FoundationEssentials
import KindredHandlers
import KindredMessages
import KindredPostgres
import KindredRPC

/// Learning points and reward apps: who may read and change a child's, the setup, and the balance. Unlocks
/// and locks are in `Rewards+Unlocks.swift`; SQL in `Storage/RewardStore*.swift`.
struct Rewards: Sendable {
    /// How the caller stands to the child whose points they ask about.
    enum Standing {
        /// The child's own sign-in, or their device in child mode: reads only.
        case child
        /// A guardian's own account, or the child's device in parent mode proven with the guardian PIN
        /// (`guardian_pin`): reads, sets up, unlocks and locks.
        case guardian
    }

    let database: PostgresPool
    let clock: WallClock
    let guardians: any GuardianDirectory
    let sessions: UsageSessions

    init(context: GamificationContext) {
        database = context.database
        clock = context.clock
        guardians = context.guardians
        sessions = context.usageSessions
    }

    /// The child a request's `child_user_id` names: nil when it is empty (the caller), INVALID_ARGUMENT naming
    /// it when it is malformed.
    static func child(named childUserID: String) throws(RPCError) -> UserID? {
        childUserID.isEmpty ? nil : try FieldViolations.id("child_user_id", childUserID)
    }

    /// How `caller` (the account of `context`'s call) stands to `child`: themself (their guardian while their
    /// device is in parent mode proven with the guardian PIN), or their guardian by family's word; anyone else
    /// gets what an id nobody has gets.
    func standing(of caller: UserID, toward child: UserID, _ context: ServerContext) async throws -> Standing
    {
        let metadata = context.requestMetadata
        if child == caller {
            let parentMode = try context.authenticatedCaller().guardianPinMinorID
            return parentMode == child ? .guardian : .child
        }
        guard try await guardians.guards(child, caller: caller, forwarding: metadata) else {
            throw GamificationError.childNotFound
        }
        return .guardian
    }

    func setup(of child: UserID) async throws -> Kindred_Gamification_V1_RewardSetup {
        RewardSetupDraft.message(try await RewardStore.setup(of: child, on: database), of: child)
    }

    /// Replaces the child's setup (a guardian's, or the child's device in parent mode: `by` is the account
    /// signed in); unlocks of apps no longer reward apps end, spending what they used.
    func replaceSetup(_ draft: RewardSetupDraft, of child: UserID, by guardian: UserID) async throws
        -> Kindred_Gamification_V1_RewardSetup
    {
        let now = clock.now
        try await database.transaction { tx in
            try await RewardStore.replace(draft, of: child, by: guardian, at: now, in: tx)
            try await RewardStore.settle(child, app: nil, at: now, sessions: sessions, in: tx)
        }
        return try await setup(of: child)
    }

    /// The child's points and used apps as of now.
    func dashboard(of child: UserID) async throws -> Kindred_Gamification_V1_ChildDashboard {
        try await balance(of: child, at: clock.now, on: database).dashboard(of: child)
    }

    /// The balance read on `db` (a transaction holding the child's row, for a change).
    func balance(of child: UserID, at now: Date, on db: some StatementRunner) async throws -> RewardBalance {
        let setup = try await RewardStore.setup(of: child, on: db)
        return RewardBalance(
            apps: try await RewardStore.appTotals(of: child, on: db),
            unlocks: try await RewardStore.unlocks(of: child, at: now, sessions: sessions, on: db),
            pointsPerLearningMinute: setup?.pointsPerLearningMinute ?? 0,
            pointsPerRewardMinute: setup?.pointsPerRewardMinute ?? 0)
    }
}
